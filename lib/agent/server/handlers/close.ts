// `close`: idempotent. SIGHUP (what a closing terminal sends), then the
// tree is terminated after the grace; `force` kills at once. The session
// stays listed with its exit facts.
import type { AgentContext } from "../agent-context.ts";
import type { CloseRequest, ReplyBodies } from "../../protocol/messages.ts";

/** Closes a session and replies once its process tree is gone. */
export async function handleClose(ctx: AgentContext, request: CloseRequest): Promise<ReplyBodies["close"]> {
  const entry = ctx.registry.get(request.session);
  await entry.session.close({
    graceMs: request.graceMs ?? ctx.defaults.closeGraceMs,
    force: request.force === true,
  });
  return { session: ctx.registry.info(entry) };
}
