// `send`: text literally, then named keys, then raw bytes. Key names are
// all checked by the session before any byte goes out (an unknown one sends
// nothing).
import { Buffer } from "node:buffer";
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type ReplyBodies, type SendRequest } from "../protocol.ts";

/** Writes to the session's terminal; replies with the number of parts sent. */
export async function handleSend(ctx: AgentContext, request: SendRequest): Promise<ReplyBodies["send"]> {
  const { session } = ctx.registry.get(request.session);
  if (!session.alive()) {
    throw new AgentError("session_exited", `session ${request.session} has exited; nothing can be sent to it (its screen can still be read)`);
  }
  let sent = 0;
  // Every key name is checked before the text goes out: a typo sends nothing.
  if (request.keys !== undefined) session.checkKeys(request.keys);
  const parts: Array<() => Promise<void>> = [];
  if (request.text !== undefined && request.text.length > 0) parts.push(() => session.write(request.text as string));
  if (request.keys !== undefined && request.keys.length > 0) parts.push(() => session.sendKeys(request.keys as string[]));
  if (request.bytes !== undefined && request.bytes.length > 0) {
    const bytes = new Uint8Array(Buffer.from(request.bytes, "base64"));
    parts.push(() => session.write(bytes));
  }
  for (const part of parts) {
    await part();
    sent++;
  }
  return { sent };
}
