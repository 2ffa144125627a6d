// `agent-stop`: replies first, then the agent closes every session (their
// trees gone) and exits.
import type { AgentContext } from "../agent-context.ts";
import type { ReplyBodies } from "../../protocol/messages.ts";

/** Schedules the shutdown; the reply says how many sessions will be closed. */
export function handleAgentStop(ctx: AgentContext): ReplyBodies["agent-stop"] {
  const sessions = ctx.registry.aliveCount();
  ctx.requestStop();
  return { stopping: true, sessions };
}
