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
    await client.call({
      op: "send",
      session,
      ...(text !== undefined ? { text } : {}),
      ...(keys.length > 0 ? { keys } : {}),
      ...(bytes !== undefined ? { bytes: bytes.toString("base64") } : {}),
    });
  });
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
