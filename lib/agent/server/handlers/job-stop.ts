// `job-stop`: ends one job's whole tree, as `reap --all` does for every
// job, and answers once it is gone (or says which members could not be
// confirmed gone: the receipt). A job that already ended is left as it is
// and answers with the receipt recorded at its end. The job stays in the
// table, readable, until it is reaped.
import type { AgentContext } from "../agent-context.ts";
import type { JobStopRequest, ReplyBodies } from "../../protocol/messages.ts";
import { resolveJob } from "./job-errors.ts";

/** Grace when the request names none: what `reap --all` and `run` use. */
const DEFAULT_GRACE_MS = 5000;

/** Terminates the job's tree; replies with its row once it is done. */
export async function handleJobStop(ctx: AgentContext, request: JobStopRequest): Promise<ReplyBodies["job-stop"]> {
  const job = resolveJob(ctx, request.job);
  if (job.state === "done") return { job: ctx.jobs.info(job), receipt: job.receipt, stopped: false };
  ctx.jobs.touch(job);
  // A stopped job gets SIGCONT with the TERM (the supervisor's terminate does both).
  const receipt = await job.process.terminate(request.graceMs ?? DEFAULT_GRACE_MS);
  await job.settled;
  return { job: ctx.jobs.info(job), receipt: job.receipt ?? receipt, stopped: true };
}
