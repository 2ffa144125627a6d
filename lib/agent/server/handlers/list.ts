// `list`: every session, running or exited. Never reads a screen, so it
// never consumes a pending change.
import type { AgentContext } from "../agent-context.ts";
import type { ReplyBodies } from "../../protocol/messages.ts";
import { foregroundOf } from "../screen-view.ts";

/** Lists sessions in the order they were opened, each with its foreground process. */
export async function handleList(ctx: AgentContext): Promise<ReplyBodies["list"]> {
  const now = Date.now();
  const entries = ctx.registry.all();
  const foregrounds = await Promise.all(entries.map((entry) => foregroundOf(entry)));
  return { sessions: entries.map((entry, i) => ({ ...ctx.registry.info(entry, now), foreground: foregrounds[i] ?? null })) };
}
