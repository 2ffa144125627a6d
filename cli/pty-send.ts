// `corral pty send`: text, then named keys, then stdin's raw bytes. Text,
// keys and the first slice of stdin go in one request, so an unknown key
// name means nothing at all was sent. Stdin is streamed: one slice at a
// time, the next read only once the agent has answered the last (and the
// agent answers a send only once its bytes are on their way to the program),
// so `--stdin < /dev/zero` runs in bounded memory, at the program's pace,
// for as long as the program reads.
import { Buffer } from "node:buffer";
import process from "node:process";
import type { CorralContext } from "./context.ts";
import type { SendFlags } from "./pty-flags.ts";
import { reportFailure, withAgent } from "./agent-reach.ts";
import { UsageError } from "./exit-status.ts";

/** Raw bytes per request: base64 grows them by a third, well inside the 8 MiB frame. */
const SLICE_BYTES = 1024 * 1024;

/** Sends to a session; prints nothing on success. */
export async function ptySendAction(this: CorralContext, flags: SendFlags, session: string, text?: string): Promise<void> {
  const keys = flags.key ?? [];
  if (text === undefined && keys.length === 0 && !flags.stdin) {
    reportFailure(this, new UsageError("pty send needs TEXT, --key NAME or --stdin (e.g. corral pty send 1 'ls' --key Enter)"));
    return;
  }
  const slices = flags.stdin ? stdinSlices() : undefined;
  // The first slice is read before connecting: an empty stdin adds nothing to the request.
  const first = slices === undefined ? undefined : await slices.next();
  try {
    await sendAll(this, flags, session, text, keys, slices, first);
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
): Promise<void> {
  await withAgent(ctx, flags, async (client) => {
    const bytes = first === undefined || first.done === true ? undefined : first.value;
    await client.call({
      op: "send",
      session,
      ...(text !== undefined ? { text } : {}),
      ...(keys.length > 0 ? { keys: [...keys] } : {}),
      ...(bytes !== undefined ? { bytes: bytes.toString("base64") } : {}),
    });
    if (slices === undefined || bytes === undefined) return;
    for await (const slice of slices) await client.call({ op: "send", session, bytes: slice.toString("base64") });
  });
}

/** Stdin in slices of at most SLICE_BYTES; at most one slice (plus the stream's own buffer) is held. */
async function* stdinSlices(): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    let rest = chunk as Buffer;
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
