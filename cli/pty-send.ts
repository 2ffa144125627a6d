// `corral pty send`: text, then named keys, then stdin's raw bytes, in one
// request, so an unknown key name means nothing at all was sent.
import { Buffer } from "node:buffer";
import process from "node:process";
import type { CorralContext } from "./context.ts";
import type { SendFlags } from "./pty-flags.ts";
import { reportFailure, withAgent } from "./agent-reach.ts";
import { UsageError } from "./exit-status.ts";

/** Sends to a session; prints nothing on success. */
export async function ptySendAction(this: CorralContext, flags: SendFlags, session: string, text?: string): Promise<void> {
  const keys = flags.key ?? [];
  if (text === undefined && keys.length === 0 && !flags.stdin) {
    reportFailure(this, new UsageError("pty send needs TEXT, --key NAME or --stdin (e.g. corral pty send 1 'ls' --key Enter)"));
    return;
  }
  const bytes = flags.stdin ? await readStdin() : undefined;
  await withAgent(this, flags, async (client) => {
    // Text, keys and the first slice of stdin in one request: a bad key
    // name sends nothing. Larger input follows in slices that fit a frame.
    const slices = bytes === undefined ? [] : sliceBytes(bytes);
    await client.call({
      op: "send",
      session,
      ...(text !== undefined ? { text } : {}),
      ...(keys.length > 0 ? { keys } : {}),
      ...(slices.length > 0 ? { bytes: (slices[0] as Buffer).toString("base64") } : {}),
    });
    for (const slice of slices.slice(1)) await client.call({ op: "send", session, bytes: slice.toString("base64") });
  });
}

/** Raw bytes per request: base64 grows them by a third, frames stop at 8 MiB. */
const SLICE_BYTES = 4 * 1024 * 1024;

function sliceBytes(bytes: Buffer): Buffer[] {
  const slices: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) slices.push(bytes.subarray(at, at + SLICE_BYTES));
  return slices;
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
