// `fg`: this connection becomes the job's terminal, then the job gets
// SIGCONT (in that order, so no byte written after continuing is missed).
// A finished job is not attached: its row (with exit facts) is the answer.
import type { AgentContext } from "../agent-context.ts";
import { clampSize } from "../agent-context.ts";
import { JobTerminal } from "../job-terminal.ts";
import { AgentError, type FgRequest, type ReplyBodies } from "../../protocol/messages.ts";
import { resolveJob } from "./job-errors.ts";
import type { JobTerminalTarget } from "./job-start.ts";

/** Attaches and continues the job. */
export async function handleFg(ctx: AgentContext, request: FgRequest, target: JobTerminalTarget): Promise<ReplyBodies["fg"]> {
  const job = resolveJob(ctx, request.job);
  ctx.jobs.touch(job);
  if (job.state === "done") return { job: ctx.jobs.info(job), attached: false };
  if (job.attached) {
    throw new AgentError("bad_request", `%${job.id} is in the foreground of another terminal already`);
  }
  if (job.mode === "pty" && request.cols !== undefined && request.rows !== undefined) {
    job.process.resize(clampSize(request.cols), clampSize(request.rows));
  }
  target.attachMode(new JobTerminal(job, ctx.jobs, target.socket, job.store.totalBytes, ctx.defaults.closeGraceMs));
  if (job.state === "stopped") await job.process.signal("SIGCONT", "tree");
  return { job: ctx.jobs.info(job), attached: true };
}
