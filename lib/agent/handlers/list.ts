// `list`: every session, running or exited. Never reads a screen, so it
// never consumes a pending change.
import type { AgentContext } from "../agent-context.ts";
import type { ReplyBodies } from "../protocol.ts";

/** Lists sessions in the order they were opened. */
export function handleList(ctx: AgentContext): ReplyBodies["list"] {
  const now = Date.now();
  return { sessions: ctx.registry.all().map((entry) => ctx.registry.info(entry, now)) };
}
