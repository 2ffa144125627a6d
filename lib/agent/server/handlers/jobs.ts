// `jobs`: every job in id order with its state and marks. Never waits.
import type { AgentContext } from "../agent-context.ts";
import type { ReplyBodies } from "../../protocol/messages.ts";

/** Lists the jobs. */
export function handleJobs(ctx: AgentContext): ReplyBodies["jobs"] {
  return { jobs: ctx.jobs.all().map((job) => ctx.jobs.info(job)) };
}
