// How lib/jobs' failures become typed wire errors, in one place for every
// job handler: a bad id is bad_request (exit 2), an unknown one unknown_job
// (exit 1), a program that cannot start keeps its 127/126 meaning.
import { parseJobRef } from "../../../jobs/job-id.ts";
import type { Job } from "../../../jobs/job.ts";
import { SpillError } from "../../../output/bounded-store.ts";
import { CorralError } from "../../../core/corral-error.ts";
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

/** lib/jobs, lib/supervise and lib/output errors as AgentError; anything else as is. */
export function asJobError(error: unknown): unknown {
  if (error instanceof SpillError) return new AgentError("bad_request", `--spill: ${error.message}`);
  // JobIdError, UnknownJobError, JobRefusedError, SpawnError: each carries its wire code.
  if (error instanceof CorralError && !(error instanceof AgentError)) return new AgentError(error.code, error.message);
  return error;
}
