// `corral pty send`: text, then named keys, then stdin's raw bytes, in one
// request, so an unknown key name means nothing at all was sent. The agent
// answers the output position at which the input went in (--json: {"at": N});
// --wait-* waits after it in the same call (DESIGN.md 4.8).
import { Buffer } from "node:buffer";
import process from "node:process";
import type { CorralContext } from "./context.ts";
import type { SendFlags } from "./pty-flags.ts";
import { replyBody, reportFailure, withAgent } from "./agent-reach.ts";
import { UsageError } from "./exit-status.ts";
import { printWait, waitConditions } from "./pty-wait-conditions.ts";
import type { WaitConditions } from "../lib/agent/protocol.ts";

/** Sends to a session; prints nothing on success (the position with --json, the wait's answer with --wait-*). */
export async function ptySendAction(this: CorralContext, flags: SendFlags, session: string, text?: string): Promise<void> {
  const keys = flags.key ?? [];
  let wait: WaitConditions | null;
  try {
    if (text === undefined && keys.length === 0 && !flags.stdin) {
      throw new UsageError("pty send needs TEXT, --key NAME or --stdin (e.g. corral pty send 1 'ls' --key Enter)");
    }
    wait = await waitConditions(
      {
        text: flags.waitText ?? [],
        regex: flags.waitRegex ?? [],
        stable: flags.waitStable,
        ready: flags.waitReady,
        exit: false,
        timeout: flags.timeout,
      },
      { stable: "--wait-stable" },
    );
    if (wait === null && flags.timeout !== undefined) {
      throw new UsageError("--timeout goes with --wait-text, --wait-regex, --wait-stable or --wait-ready");
    }
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  const bytes = flags.stdin ? await readStdin() : undefined;
  await withAgent(this, flags, async (client) => {
    // Text, keys and the first slice of stdin in one request: a bad key
    // name sends nothing. Larger input follows in slices that fit a frame;
    // the wait goes with the last one.
    const slices = bytes === undefined ? [] : sliceBytes(bytes);
    const rest = slices.slice(1);
    const first = replyBody(
      await client.call({
        op: "send",
        session,
        ...(text !== undefined ? { text } : {}),
        ...(keys.length > 0 ? { keys } : {}),
        ...(slices.length > 0 ? { bytes: (slices[0] as Buffer).toString("base64") } : {}),
        ...(wait !== null && rest.length === 0 ? { wait } : {}),
      }),
    );
    for (const slice of rest) await client.call({ op: "send", session, bytes: slice.toString("base64") });
    // Input in several slices: the wait starts where the first one went in.
    const waited = rest.length > 0 && wait !== null
      ? replyBody(await client.call({ op: "wait", session, ...wait, after: first.at }))
      : first.wait;
    const reply = { sent: first.sent + rest.length, at: first.at, ...(waited !== undefined ? { wait: waited } : {}) };
    if (flags.json) this.process.stdout.write(`${JSON.stringify(reply)}\n`);
    else if (waited !== undefined) printWait(this.process.stdout, this.process.stderr, waited, false);
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
