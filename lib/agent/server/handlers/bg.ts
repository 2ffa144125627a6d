// `bg`: a stopped job continues without a terminal; its output keeps
// flowing into its store. A running or finished job is left as it is.
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type BgRequest, type ReplyBodies } from "../../protocol/messages.ts";
import { jobChange } from "../../../jobs/job-wait.ts";
import { resolveJob } from "./job-errors.ts";

/** Continues the job in the background. */
export async function handleBg(ctx: AgentContext, request: BgRequest): Promise<ReplyBodies["bg"]> {
  const job = resolveJob(ctx, request.job);
  if (job.attached) throw new AgentError("bad_request", `%${job.id} is in the foreground of a terminal; Ctrl-Z it there first`);
  if (job.state === "stopped") {
    ctx.jobs.touch(job);
    const continued = jobChange(job, "continued", 2000);
    await job.process.signal("SIGCONT", "tree");
    await continued;
  }
  return { job: ctx.jobs.info(job) };
}
