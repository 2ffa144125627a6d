// `resize`: clamped to 1..1000 (DESIGN.md 4.4); the program gets SIGWINCH.
// An exited session has no terminal to resize: session_exited, as `send` says.
import { clampSize, type AgentContext } from "../agent-context.ts";
import type { ReplyBodies, ResizeRequest } from "../../protocol/messages.ts";
import { checkScreenCells } from "../agent-budgets.ts";
import { makeScreenRoom } from "../screen-pressure.ts";
import { AgentError } from "../../protocol/errors.ts";

/** Resizes; the next screen read reports a change. Replies with the session object, as open and close do. */
export function handleResize(ctx: AgentContext, request: ResizeRequest): ReplyBodies["resize"] {
  const entry = ctx.registry.get(request.session);
  const { session } = entry;
  if (!session.alive()) {
    throw new AgentError("session_exited", `session ${request.session} has exited; there is no terminal to resize (its screen can still be read)`);
  }
  const [cols, rows] = [clampSize(request.cols), clampSize(request.rows)];
  // The new size with the scrollback lines it holds now (all it could hold, for a session that cannot tell).
  const now = session.size();
  const held = session.cellsHeld?.();
  const lines = held === undefined ? entry.scrollback : Math.max(0, Math.ceil(held / Math.max(1, now.cols)) - now.rows);
  const wanted = cols * (rows + lines);
  const inUse = makeScreenRoom(ctx.registry, wanted, ctx.budgets.screenCells, entry);
  checkScreenCells(inUse, wanted, ctx.budgets.screenCells, `session ${entry.id} at ${cols}x${rows}`);
  session.resize(cols, rows);
  return { session: ctx.registry.info(entry) };
}
