// The text projection of output bytes (DESIGN.md 4.3): UTF-8, a sequence split
// across chunks is held until its last byte arrives, invalid bytes become
// U+FFFD (one per maximal invalid subpart, as the WHATWG decoder does), and a
// byte-order mark is kept as text rather than silently dropped.
import type { RetainedSnapshot } from "./retained-window.ts";

/** Streaming bytes -> text for followers of a live stream (PTY tees, logs). */
export class Utf8TextStream {
  #decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

  /** Text for the complete characters so far; a trailing partial sequence is held. */
  write(chunk: Uint8Array): string {
    return this.#decoder.decode(chunk, { stream: true });
  }

  /** End of stream: a held partial sequence is invalid now and becomes U+FFFD. */
  end(): string {
    return this.#decoder.decode();
  }
}

/** Head and tail of a snapshot as text, for `collect --json`. */
export interface RetainedText {
  readonly head: string;
  readonly tail: string;
}

// A UTF-8 sequence is at most 4 bytes, so a cut can orphan at most 3
// continuation bytes (0b10xxxxxx) at the start of the tail.
const MAX_ORPHANS = 3;

/**
 * Renders a snapshot's head and tail as text.
 * - Nothing elided: head + tail decode as the one stream they are, so
 *   `head + tail` is exactly the stream's text; a character that straddles
 *   the head/tail boundary appears in the tail.
 * - Bytes elided: a character cut by the head limit is left out of the head
 *   (it was not invalid, only not kept), and up to 3 continuation bytes at the
 *   start of the tail (the end of a character that began in the elided part)
 *   are skipped rather than shown as U+FFFD.
 * - `final` (the stream has ended): a partial sequence at the very end is
 *   invalid and shown as U+FFFD; while the stream is open it is held back.
 */
export function retainedText(snapshot: RetainedSnapshot, options: { readonly final: boolean }): RetainedText {
  const text = { head: "", tail: "" };
  for (const piece of retainedTextPieces(snapshot, options)) text[piece.part] += piece.text;
  return text;
}

/** A piece of retainedText's head or tail; the head's pieces come first. */
export interface RetainedTextPiece {
  readonly part: "head" | "tail";
  readonly text: string;
}

/**
 * retainedText in pieces of about `pieceBytes` bytes each, for a writer
 * that need not hold the whole text: a 64 MiB tail decoded at once is a
 * 64 MiB string and more while it is made. A piece never ends inside a
 * character (the decoder holds a partial sequence for the next).
 */
export function* retainedTextPieces(
  snapshot: RetainedSnapshot,
  options: { readonly final: boolean },
  pieceBytes = 1 << 20,
): Generator<RetainedTextPiece> {
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  yield* decodedPieces(decoder, "head", snapshot.head, true, pieceBytes);
  if (snapshot.elided === 0) {
    // One stream: a character straddling the head/tail boundary appears in the tail.
    yield* decodedPieces(decoder, "tail", snapshot.tail, !options.final, pieceBytes);
    return;
  }
  let skip = 0;
  while (skip < MAX_ORPHANS && skip < snapshot.tail.length && ((snapshot.tail[skip] as number) & 0xc0) === 0x80) skip++;
  const tailDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  yield* decodedPieces(tailDecoder, "tail", snapshot.tail.subarray(skip), !options.final, pieceBytes);
}

/** `bytes` through `decoder` in pieces; `holdAtEnd`: a partial sequence at the end stays held (else it becomes U+FFFD). */
function* decodedPieces(
  decoder: InstanceType<typeof TextDecoder>,
  part: "head" | "tail",
  bytes: Uint8Array,
  holdAtEnd: boolean,
  pieceBytes: number,
): Generator<RetainedTextPiece> {
  for (let at = 0; at < bytes.length; at += pieceBytes) {
    const end = Math.min(at + pieceBytes, bytes.length);
    const text = decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length || holdAtEnd });
    if (text !== "") yield { part, text };
  }
  if (bytes.length === 0 && !holdAtEnd) {
    const text = decoder.decode();
    if (text !== "") yield { part, text };
  }
}
