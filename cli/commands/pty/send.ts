// `corral pty send`: text, then named keys, then stdin's raw bytes. Text,
// keys and the first slice of stdin go in one request, so an unknown key
// name means nothing at all was sent. Stdin is streamed: one slice at a
// time, the next read only once the agent has answered the last (and the
// agent answers a send only once its bytes are on their way to the program),
// so `--stdin < /dev/zero` runs in bounded memory, at the program's pace,
// for as long as the program reads. The agent answers the output position
// at which the input went in (--json: {"at": N}); --wait-* waits after it in
// the same call (DESIGN.md 4.8).
import { Buffer } from "node:buffer";
import process from "node:process";
import type { CorralContext } from "../../shared/context.ts";
import type { SendFlags } from "./flags.ts";
import { replyBody, reportFailure, sessionOnly, withAgent } from "../../shared/agent-reach.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { printWait, waitFlagConditions } from "./wait-conditions.ts";
import type { WaitConditions, WaitReply } from "../../../lib/agent/protocol/messages.ts";

/** Raw bytes per request: base64 grows them by a third, well inside the 8 MiB frame. */
const SLICE_BYTES = 1024 * 1024;

/** Sends to a session; prints nothing on success (the position with --json, the wait's answer with --wait-*). */
export async function ptySendAction(this: CorralContext, flags: SendFlags, session: string, text?: string): Promise<void> {
  const keys = flags.key ?? [];
  let wait: WaitConditions | null;
  try {
    if (text === undefined && keys.length === 0 && !flags.stdin) {
      throw new UsageError("pty send needs TEXT, --key NAME or --stdin (e.g. corral pty send 1 'ls' --key Enter)");
    }
    wait = await waitFlagConditions(flags);
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  const slices = flags.stdin ? stdinSlices(this.process.stdin ?? process.stdin) : undefined;
  // The first slice is read before connecting: an empty stdin adds nothing to the request.
  const first = slices === undefined ? undefined : await slices.next();
  try {
    await sendAll(this, flags, session, text, keys, slices, first, wait);
  } finally {
    // Stops reading stdin when the send failed half way.
    await slices?.return(undefined);
  }
}

async function sendAll(
  ctx: CorralContext,
  flags: SendFlags,
  session: string,
  text: string | undefined,
  keys: readonly string[],
  slices: AsyncGenerator<Buffer> | undefined,
  first: IteratorResult<Buffer> | undefined,
  wait: WaitConditions | null,
): Promise<void> {
  await withAgent(ctx, flags, async (client) => {
    const bytes = first === undefined || first.done === true ? undefined : first.value;
    // With stdin, more slices may follow: the wait is asked for after the last one.
    const waitHere = wait !== null && slices === undefined;
    const reply = replyBody(
      await client.call({
        op: "send",
        session,
        ...(text !== undefined ? { text } : {}),
        ...(keys.length > 0 ? { keys: [...keys] } : {}),
        ...(bytes !== undefined ? { bytes: bytes.toString("base64") } : {}),
        ...(waitHere ? { wait } : {}),
      }),
    );
    let sent = reply.sent;
    if (slices !== undefined && bytes !== undefined) {
      for await (const slice of slices) {
        await client.call({ op: "send", session, bytes: slice.toString("base64") });
        sent++;
      }
    }
    // The wait starts where the first input went in.
    const waited: WaitReply | undefined = wait !== null && !waitHere
      ? replyBody(await client.call({ op: "wait", session, ...wait, after: reply.at }))
      : reply.wait;
    if (flags.json) {
      ctx.process.stdout.write(`${JSON.stringify({ sent, at: reply.at, ...(waited !== undefined ? { wait: waited } : {}) })}\n`);
    } else if (waited !== undefined) printWait(ctx.process.stdout, ctx.process.stderr, waited, false);
  }, sessionOnly(ctx, session));
}

/** Stdin in slices of at most SLICE_BYTES; at most one slice (plus the stream's own buffer) is held. */
async function* stdinSlices(input: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    let rest = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    while (size + rest.length >= SLICE_BYTES) {
      const take = SLICE_BYTES - size;
      held.push(rest.subarray(0, take));
      rest = rest.subarray(take);
      yield Buffer.concat(held);
      held = [];
      size = 0;
    }
    if (rest.length > 0) {
      held.push(rest);
      size += rest.length;
    }
  }
  if (size > 0) yield Buffer.concat(held);
}
