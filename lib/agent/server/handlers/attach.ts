// `attach`: hands a session to a person's terminal. The reply comes first;
// after it the connection carries raw byte frames both ways until the
// client detaches (closes) or the program exits.
import { clampSize, type AgentContext } from "../agent-context.ts";
import { AgentError, type AttachRequest, type ReplyBodies } from "../../protocol/messages.ts";
import type { SessionEntry } from "../session-registry.ts";

/** The connection side of attach (lib/agent/server/connection.ts implements it). */
export interface AttachTarget {
  /** Switches the connection to attach mode once the reply is written. */
  attachTo(entry: SessionEntry): void;
}

/** Resizes to the person's window and switches the connection to raw bytes. */
export function handleAttach(ctx: AgentContext, request: AttachRequest, target: AttachTarget): ReplyBodies["attach"] {
  const entry = ctx.registry.get(request.session);
  if (!entry.session.alive()) {
    throw new AgentError("session_exited", `session ${request.session} has exited; there is nothing to attach to`);
  }
  if (request.cols !== undefined && request.rows !== undefined) {
    entry.session.resize(clampSize(request.cols), clampSize(request.rows));
  }
  target.attachTo(entry);
  const size = entry.session.size();
  return { session: entry.id, cols: size.cols, rows: size.rows };
}
