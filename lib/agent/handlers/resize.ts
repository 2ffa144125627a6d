// `resize`: clamped to 1..1000 (DESIGN.md 4.4); the program gets SIGWINCH.
import { clampSize, type AgentContext } from "../agent-context.ts";
import type { ReplyBodies, ResizeRequest } from "../protocol.ts";

/** Resizes; the next screen read reports a change. */
export function handleResize(ctx: AgentContext, request: ResizeRequest): ReplyBodies["resize"] {
  const { session } = ctx.registry.get(request.session);
  if (session.alive()) session.resize(clampSize(request.cols), clampSize(request.rows));
  return session.size();
}
