// `send`: text literally, then named keys, then raw bytes. Key names are
// all checked by the session before any byte goes out (an unknown one sends
// nothing). The reply carries the output position at which the input went
// in, so a later wait `after` it cannot miss the answer (DESIGN.md 4.8);
// with `wait`, that wait runs here, in the same request.
import { Buffer } from "node:buffer";
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type ReplyBodies, type SendRequest } from "../../protocol/messages.ts";
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
  // Each write with how many of the request's parts (text, keys, bytes) it carries.
  const writes: Array<{ parts: number; write: () => Promise<number> }> = [];
  const text = request.text !== undefined && request.text.length > 0 ? request.text : undefined;
  const keys = request.keys !== undefined && request.keys.length > 0 ? request.keys : undefined;
  // Text then keys go in one write (one frame to the guardian, one read for the program).
  if (text !== undefined && keys !== undefined) writes.push({ parts: 2, write: () => session.sendKeys(keys, text) });
  else if (text !== undefined) writes.push({ parts: 1, write: () => session.write(text) });
  else if (keys !== undefined) writes.push({ parts: 1, write: () => session.sendKeys(keys) });
  if (request.bytes !== undefined && request.bytes.length > 0) {
    const bytes = new Uint8Array(Buffer.from(request.bytes, "base64"));
    writes.push({ parts: 1, write: () => session.write(bytes) });
  }
  let at: number | undefined;
  for (const { parts, write } of writes) {
    const wentIn = await write();
    at ??= wentIn;
    sent += parts;
  }
  at ??= session.position();
  if (request.wait === undefined) return { sent, at };
  return { sent, at, wait: await waitOn(ctx, entry, request.wait, { after: at }, signal) };
}
