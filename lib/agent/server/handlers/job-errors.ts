// How lib/jobs' failures become typed wire errors, in one place for every
// job handler: a bad id is bad_request (exit 2), an unknown one unknown_job
// (exit 1), a program that cannot start keeps its 127/126 meaning.
import { JobIdError, parseJobRef } from "../../../jobs/job-id.ts";
import { JobRefusedError } from "../../../jobs/start-job.ts";
import { UnknownJobError } from "../../../jobs/job-table.ts";
import type { Job } from "../../../jobs/job.ts";
import { SpillError } from "../../../output/bounded-store.ts";
import { SpawnError } from "../../../spawn/spawn-error.ts";
import type { AgentContext } from "../agent-context.ts";
import { AgentError } from "../../protocol/messages.ts";

/** The job an optional id names (none: the current job); throws AgentError. */
export function resolveJob(ctx: AgentContext, id: string | undefined): Job {
  try {
    return ctx.jobs.resolve(id === undefined ? undefined : parseJobRef(id));
  } catch (error) {
    throw asJobError(error);
  }
}

/** lib/jobs, lib/spawn and lib/output errors as AgentError; anything else as is. */
export function asJobError(error: unknown): unknown {
  if (error instanceof JobIdError) return new AgentError("bad_request", error.message);
  if (error instanceof UnknownJobError) return new AgentError("unknown_job", error.message);
  if (error instanceof JobRefusedError) return new AgentError(error.code, error.message);
  if (error instanceof SpillError) return new AgentError("bad_request", `--spill: ${error.message}`);
  if (error instanceof SpawnError) {
    const code = error.failure === "not-found"
      ? "command_not_found"
      : error.failure === "not-executable"
      ? "command_not_executable"
      : error.failure === "bad-cwd"
      ? "bad_request"
      : "spawn_failed";
    return new AgentError(code, error.message);
  }
  return error;
}
