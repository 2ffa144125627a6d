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
 * Incremental decoder. The declared length is checked against the maximum
 * before any of the payload is buffered, so a hostile length costs nothing.
 */
export class FrameDecoder {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;

  constructor(readonly maxPayloadBytes: number) {}

  /** Bytes buffered toward frames not complete yet (what a memory budget counts). */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** Feeds bytes; returns every frame now complete. Throws FrameError. */
  push(chunk: Uint8Array): Frame[] {
    if (chunk.length > 0) {
      this.#pending.push(chunk);
      this.#pendingBytes += chunk.length;
    }
    const frames: Frame[] = [];
    for (;;) {
      if (this.#pendingBytes < FRAME_PREFIX_BYTES) return frames;
      const head = this.#peek(FRAME_PREFIX_BYTES);
      const length = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, false);
      if (length === 0) throw new FrameError("empty", "frame has no tag byte (length 0)");
      if (length > this.maxPayloadBytes) {
        throw new FrameError("oversized", `frame of ${length} bytes exceeds the maximum of ${this.maxPayloadBytes}`);
      }
      if (this.#pendingBytes < FRAME_PREFIX_BYTES + length) return frames;
      const whole = this.#take(FRAME_PREFIX_BYTES + length);
      frames.push({ tag: whole[FRAME_PREFIX_BYTES] as number, body: whole.subarray(FRAME_PREFIX_BYTES + 1) });
    }
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
