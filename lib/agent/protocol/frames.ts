// The agent's framing (DESIGN.md 4.6): the length-prefixed frames of
// lib/core/frame.ts (the codec the guardian protocol shares), with the
// agent's two tags and its frame limit. Runtime-neutral: no Buffer, no I/O.
import { encodeFrame } from "../../core/frame.ts";
import type { AgentEvent, AttachedMessage } from "./operations.ts";

export { encodeFrame, FrameDecoder, FrameError, type Frame } from "../../core/frame.ts";

/** Largest frame either side accepts; checked before any payload is buffered. */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** Frame tags: JSON control messages and raw terminal bytes. */
export const Tag = {
  /** A JSON request, reply or event (UTF-8). */
  json: 1,
  /** Raw terminal bytes, only on a connection switched to attach mode. */
  bytes: 2,
  /** A served command line's output (command-line op): body[0] is the descriptor, 1 or 2, then the bytes. */
  output: 3,
  /**
   * A served command line's stdin, pulled (command-line op with `stdin`):
   * the agent sends an empty one to ask for more; the client answers with
   * one of at most INPUT_FRAME_BYTES of its stdin, or an empty one at its end.
   * With `lines` (a served `connect`), the agent's first empty one says the
   * command runs, and from then on the client pushes its stdin unasked, in
   * frames of at most INPUT_FRAME_BYTES, and an empty one at its end. A
   * first one holding ADOPTED instead says the agent took the client's
   * stdin and stdout (the request's `adopt`): the client pushes nothing.
   */
  input: 4,
} as const;

/** The body of the input frame that tells a `connect` client its stdin and stdout were taken ("A"). */
export const ADOPTED = 0x41;

/** Largest stdin frame a client sends: one is in flight at a time, so a command's input is bounded. */
export const INPUT_FRAME_BYTES = 64 * 1024;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { ignoreBOM: true }); // a BOM stays, as Buffer kept it: not JSON

/** A JSON frame: a request, a reply, or one of the typed messages below. */
export function jsonFrame(message: object): Uint8Array {
  return encodeFrame(Tag.json, utf8.encode(JSON.stringify(message)));
}

/** Raw terminal bytes (attach mode only). */
export function bytesFrame(bytes: Uint8Array): Uint8Array {
  return encodeFrame(Tag.bytes, bytes);
}

/** Output of a command line the agent runs for the native client: one frame per chunk. */
export function outputFrame(fd: 1 | 2, bytes: Uint8Array): Uint8Array {
  // encodeFrame's layout, written once (a screen reply per request goes through here).
  const frame = new Uint8Array(bytes.length + 6);
  new DataView(frame.buffer).setUint32(0, bytes.length + 2, false);
  frame[4] = Tag.output;
  frame[5] = fd;
  frame.set(bytes, 6);
  return frame;
}

/** A stdin frame: from the agent an empty one asks for more; from the client, bytes, or empty at the end. */
export function inputFrame(bytes: Uint8Array): Uint8Array {
  return encodeFrame(Tag.input, bytes);
}

/** What a client sends on an attached connection: only the table's attached messages. */
export function attachedFrame(message: AttachedMessage): Uint8Array {
  return jsonFrame(message);
}

/** What the agent sends unprompted: only the table's events. */
export function eventFrame(event: AgentEvent): Uint8Array {
  return jsonFrame(event);
}

/** The JSON of a frame's body; throws SyntaxError when it is not JSON. */
export function frameJson(body: Uint8Array): unknown {
  return JSON.parse(fromUtf8.decode(body));
}
