// The wire framing shared by the guardian protocol and the agent protocol:
// a 4-byte big-endian payload length, then the payload (one tag byte and a
// body). Runtime-neutral on purpose: Uint8Array only, no Buffer, no I/O, so
// the same codec runs in Node, Deno, Bun and is fuzzed in isolation. In
// lib/core (the shared vocabulary) because both protocols speak it; the
// agent's tags and limit are in lib/agent/protocol/frames.ts.

/** Bytes before the body: the length prefix and the tag. */
export const FRAME_PREFIX_BYTES = 4;

export type FrameErrorCode = "oversized" | "empty" | "truncated";

/** A protocol error: the connection that produced it must be closed. */
export class FrameError extends Error {
  override readonly name = "FrameError";
  constructor(readonly code: FrameErrorCode, message: string) {
    super(message);
  }
}

export interface Frame {
  readonly tag: number;
  readonly body: Uint8Array;
}

export function encodeFrame(tag: number, body: Uint8Array = new Uint8Array(0)): Uint8Array {
  if (!Number.isInteger(tag) || tag < 0 || tag > 255) throw new RangeError(`frame tag ${tag} is not a byte`);
  const out = new Uint8Array(FRAME_PREFIX_BYTES + 1 + body.length);
  new DataView(out.buffer).setUint32(0, body.length + 1, false);
  out[FRAME_PREFIX_BYTES] = tag;
  out.set(body, FRAME_PREFIX_BYTES + 1);
  return out;
}

/**
 * A frame at least this large is gathered into one buffer of its own size as
 * it arrives, instead of a list of the reads that brought it: the reads are
 * freed at once, and the buffer (one large allocation, which the allocator
 * maps on its own) goes back to the system whole when the frame is done or
 * its connection is dropped. Twenty held 8 MiB frames as lists of 64 KiB
 * reads left the agent at twice its frame budget, and kept it there.
 */
const OWN_BUFFER_FROM = 256 * 1024;

/**
 * Incremental decoder. The declared length is checked against the maximum
 * before any of the payload is buffered, so a hostile length costs nothing.
 */
export class FrameDecoder {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** A large frame being gathered (prefix included), and how much of it has come. */
  #frame: Uint8Array | null = null;
  #frameFilled = 0;

  constructor(readonly maxPayloadBytes: number) {}

  /** Bytes buffered toward frames not complete yet. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /**
   * What a memory budget counts: the whole size of the unfinished frame once
   * its length is known (it will be held whole before it is handed on), else
   * the bytes buffered. A sender is refused when its frame begins, not after
   * it has sent most of it, so refused senders leave little behind.
   */
  get reservedBytes(): number {
    if (this.#frame !== null) return this.#frame.length;
    if (this.#pendingBytes < FRAME_PREFIX_BYTES) return this.#pendingBytes;
    const head = this.#peek(FRAME_PREFIX_BYTES);
    return Math.max(this.#pendingBytes, FRAME_PREFIX_BYTES + new DataView(head.buffer, head.byteOffset, 4).getUint32(0, false));
  }

  /** Feeds bytes; returns every frame now complete. Throws FrameError. */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    let rest = chunk;
    if (this.#frame !== null) {
      rest = this.#fill(rest, frames);
      if (this.#frame !== null) return frames;
    }
    if (rest.length > 0) {
      this.#pending.push(rest);
      this.#pendingBytes += rest.length;
    }
    for (;;) {
      if (this.#pendingBytes < FRAME_PREFIX_BYTES) return frames;
      const head = this.#peek(FRAME_PREFIX_BYTES);
      const length = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, false);
      if (length === 0) throw new FrameError("empty", "frame has no tag byte (length 0)");
      if (length > this.maxPayloadBytes) {
        throw new FrameError("oversized", `frame of ${length} bytes exceeds the maximum of ${this.maxPayloadBytes}`);
      }
      if (this.#pendingBytes < FRAME_PREFIX_BYTES + length) {
        if (FRAME_PREFIX_BYTES + length >= OWN_BUFFER_FROM) this.#gather(FRAME_PREFIX_BYTES + length);
        return frames;
      }
      const whole = this.#take(FRAME_PREFIX_BYTES + length);
      frames.push({ tag: whole[FRAME_PREFIX_BYTES] as number, body: whole.subarray(FRAME_PREFIX_BYTES + 1) });
    }
  }

  /** Moves what is pending (the start of one unfinished frame) into a buffer of the frame's size. */
  #gather(size: number): void {
    const frame = new Uint8Array(size);
    let at = 0;
    for (const part of this.#pending) {
      frame.set(part, at);
      at += part.length;
    }
    this.#pending = [];
    this.#frame = frame;
    this.#frameFilled = at;
  }

  /** Copies into the frame being gathered; completes it when full. Returns what is left of `chunk`. */
  #fill(chunk: Uint8Array, frames: Frame[]): Uint8Array {
    const frame = this.#frame as Uint8Array;
    const n = Math.min(chunk.length, frame.length - this.#frameFilled);
    frame.set(chunk.subarray(0, n), this.#frameFilled);
    this.#frameFilled += n;
    this.#pendingBytes += n;
    if (this.#frameFilled === frame.length) {
      frames.push({ tag: frame[FRAME_PREFIX_BYTES] as number, body: frame.subarray(FRAME_PREFIX_BYTES + 1) });
      this.#pendingBytes -= frame.length;
      this.#frame = null;
      this.#frameFilled = 0;
    }
    return chunk.subarray(n);
  }

  /** Call at end of stream: a partial frame left over is a protocol error. */
  end(): void {
    if (this.#pendingBytes > 0) {
      throw new FrameError("truncated", `stream ended inside a frame (${this.#pendingBytes} bytes left over)`);
    }
  }

  #peek(n: number): Uint8Array {
    const first = this.#pending[0] as Uint8Array;
    if (first.length >= n) return first.subarray(0, n);
    return this.#concat(n, false);
  }

  #take(n: number): Uint8Array {
    const first = this.#pending[0] as Uint8Array;
    if (first.length >= n) {
      const out = first.subarray(0, n);
      if (first.length === n) this.#pending.shift();
      else this.#pending[0] = first.subarray(n);
      this.#pendingBytes -= n;
      return out;
    }
    return this.#concat(n, true);
  }

  #concat(n: number, consume: boolean): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    let index = 0;
    while (filled < n) {
      const part = this.#pending[index] as Uint8Array;
      const used = Math.min(part.length, n - filled);
      out.set(part.subarray(0, used), filled);
      filled += used;
      if (consume) {
        if (used === part.length) {
          this.#pending.shift();
        } else {
          this.#pending[0] = part.subarray(used);
        }
      } else {
        index++;
      }
    }
    if (consume) this.#pendingBytes -= n;
    return out;
  }
}
