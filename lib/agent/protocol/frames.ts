// The agent's framing (DESIGN.md 4.6): the length-prefixed frames of
// lib/core/frame.ts (the codec the guardian protocol shares), with the
// agent's two tags and its frame limit. Runtime-neutral: no Buffer, no I/O.
export { encodeFrame, FrameDecoder, FrameError, type Frame } from "../../core/frame.ts";

/** Largest frame either side accepts; checked before any payload is buffered. */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** Frame tags: JSON control messages and raw terminal bytes. */
export const Tag = {
  /** A JSON request, reply or event (UTF-8). */
  json: 1,
  /** Raw terminal bytes, only on a connection switched to attach mode. */
  bytes: 2,
} as const;
