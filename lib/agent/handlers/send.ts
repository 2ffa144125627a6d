// `send`: text literally, then named keys, then raw bytes. Key names are
// all checked by the session before any byte goes out (an unknown one sends
// nothing). The reply carries the output position at which the input went
// in, so a later wait `after` it cannot miss the answer (DESIGN.md 4.8);
// with `wait`, that wait runs here, in the same request.
import { Buffer } from "node:buffer";
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type ReplyBodies, type SendRequest } from "../protocol.ts";
import { waitOn } from "./wait.ts";

/** Writes to the session's terminal; replies with the parts sent and where they went in. */
export async function handleSend(ctx: AgentContext, request: SendRequest, signal?: AbortSignal): Promise<ReplyBodies["send"]> {
  const entry = ctx.registry.get(request.session);
  const { session } = entry;
  if (!session.alive()) {
    throw new AgentError("session_exited", `session ${request.session} has exited; nothing can be sent to it (its screen can still be read)`);
  }
  let sent = 0;
  // Every key name is checked before the text goes out: a typo sends nothing.
  if (request.keys !== undefined) session.checkKeys(request.keys);
  const parts: Array<() => Promise<number>> = [];
  if (request.text !== undefined && request.text.length > 0) parts.push(() => session.write(request.text as string));
  if (request.keys !== undefined && request.keys.length > 0) parts.push(() => session.sendKeys(request.keys as string[]));
  if (request.bytes !== undefined && request.bytes.length > 0) {
    const bytes = new Uint8Array(Buffer.from(request.bytes, "base64"));
    parts.push(() => session.write(bytes));
  }
  let at: number | undefined;
  for (const part of parts) {
    const wentIn = await part();
    at ??= wentIn;
    sent++;
  }
  at ??= session.position();
  if (request.wait === undefined) return { sent, at };
  return { sent, at, wait: await waitOn(ctx, entry, request.wait, { after: at }, signal) };
}
