// The in-memory part of a bounded output stream (DESIGN.md 4.3): the first
// `headBytes` bytes, the last `tailBytes` bytes in a ring, and the total.
// No runtime APIs here, so it runs anywhere and is cheap to test exhaustively.
// Longer than 300 lines because head, ring, gap adoption and reads share one
// window's private bookkeeping (positions, counts, the byte before the tail).

/** What a reader gets for an absolute byte offset; reading never consumes. */
export type ReadResult =
  /** Bytes [offset, nextOffset) of the stream, a fresh copy. */
  | { readonly kind: "data"; readonly offset: number; readonly bytes: Uint8Array; readonly nextOffset: number }
  /** The offset fell between head and tail: those bytes are no longer in memory. */
  | { readonly kind: "lost"; readonly offset: number; readonly retainedFrom: number; readonly spill: string | null }
  /** Nothing at this offset yet; the stream is still open. */
  | { readonly kind: "pending"; readonly offset: number }
  /** The stream is closed and offset is its end. */
  | { readonly kind: "eof"; readonly offset: number };

/** Head and tail as they stand (fresh copies, or views: see RetainedWindow.snapshot). */
export interface RetainedSnapshot {
  /** Total bytes written to the stream. */
  readonly bytes: number;
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
  /** bytes - head - tail: never negative, never double-counted. */
  readonly elided: number;
  /** True when elided > 0: memory no longer holds the whole stream. */
  readonly truncated: boolean;
  /**
   * Lines in the whole stream: line feeds, plus one for a last line without
   * one (as a person counts them; `wc -l` counts only the feeds). CR is not
   * a line end: CRLF is one line end, a lone CR (a progress bar) none.
   */
  readonly lines: number;
  /** Line feeds in the whole stream. */
  readonly lineFeeds: number;
  /** True when the tail window begins a line (offset 0, or a LF just before it). */
  readonly tailAtLineStart: boolean;
}

import { countLineFeeds } from "./line-feeds.ts";

const LF = 0x0a;

// Buffers grow geometrically up to their limit rather than being allocated at
// full size, so a generous --max-bytes costs nothing for a quiet command.
const INITIAL_CAPACITY = 64 * 1024;

/** Head + tail ring + count; the byte accounting every reader relies on. */
export class RetainedWindow {
  readonly headBytes: number;
  readonly tailBytes: number;
  #head: Uint8Array = new Uint8Array(0);
  #headLen = 0;
  #ring: Uint8Array = new Uint8Array(0);
  /** Bytes held in the ring (<= tailBytes). */
  #tailLen = 0;
  /** Ring index where the next byte goes. */
  #tailEnd = 0;
  #total = 0;
  /** Set after a gap (adoptTail): the head can no longer grow contiguously. */
  #headSealed = false;
  #lineFeeds = 0;
  /** The last byte of the stream (-1 while empty): an unterminated last line counts. */
  #lastByte = -1;
  /** The byte just before the tail window (-1: none, the tail starts the stream or follows the head). */
  #beforeTail = -1;

  constructor(headBytes: number, tailBytes: number) {
    for (const [name, v] of [["headBytes", headBytes], ["tailBytes", tailBytes]] as const) {
      if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${name} must be a whole number >= 0, got ${v}`);
    }
    this.headBytes = headBytes;
    this.tailBytes = tailBytes;
  }

  get totalBytes(): number {
    return this.#total;
  }

  /** Bytes held in memory: head + tail, never more than headBytes + tailBytes. */
  get retainedBytes(): number {
    return this.#headLen + this.#tailLen;
  }

  /** Bytes of buffer allocated (what the window costs in memory). */
  get capacityBytes(): number {
    return this.#head.length + this.#ring.length;
  }

  /** Line feeds so far. */
  get lineFeeds(): number {
    return this.#lineFeeds;
  }

  /** Lines so far, counted as RetainedSnapshot.lines (cheap: no copy). */
  get lines(): number {
    return this.#lineFeeds + (this.#lastByte !== -1 && this.#lastByte !== LF ? 1 : 0);
  }

  /** A copy of the stream's last bytes held in memory, at most `n` (for a progress line). */
  lastBytes(n: number): Uint8Array {
    if (this.#tailLen > 0) {
      const k = Math.min(n, this.#tailLen);
      return this.#tailCopy(this.#tailLen - k, k);
    }
    if (this.#total !== this.#headLen) return new Uint8Array(0);
    return this.#head.slice(Math.max(0, this.#headLen - n), this.#headLen);
  }

  /** First offset of the tail window; below it (and past the head) is lost. */
  get tailStart(): number {
    return this.#total - this.#tailLen;
  }

  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#lineFeeds += countLineFeeds(chunk);
    this.#lastByte = chunk[chunk.length - 1] as number;
    let data = chunk;
    if (this.#headLen < this.headBytes && data.length > 0 && !this.#headSealed) {
      const take = Math.min(this.headBytes - this.#headLen, data.length);
      this.#head = grow(this.#head, this.#headLen, this.#headLen + take, this.headBytes);
      this.#head.set(data.subarray(0, take), this.#headLen);
      this.#headLen += take;
      data = data.subarray(take);
    }
    this.#total += chunk.length;
    if (data.length > 0 && this.tailBytes > 0) {
      this.#noteBeforeTail(data);
      this.#appendTail(data);
    }
  }

  /**
   * Remembers the byte that will sit just before the tail window once `data`
   * (the part of a chunk bound for the ring, already counted in the total)
   * is in, so a reader can tell whether the tail starts a line. Read before
   * the ring overwrites it.
   */
  #noteBeforeTail(data: Uint8Array): void {
    const newTailLen = Math.min(this.tailBytes, this.#tailLen + data.length);
    const at = this.#total - newTailLen - 1;
    if (at < 0) return;
    const dataStart = this.#total - data.length;
    if (at >= dataStart) {
      this.#beforeTail = data[at - dataStart] as number;
    } else if (at >= dataStart - this.#tailLen) {
      this.#beforeTail = this.#tailCopy(at - (dataStart - this.#tailLen), 1)[0] as number;
    } else if (at < this.#headLen) {
      this.#beforeTail = this.#head[at] as number;
    }
  }

  /**
   * The stream ended at `total` bytes and `tail` is its last bytes; whatever
   * lies between the bytes appended so far and the tail was never seen here
   * (another writer spilled it, like the guardian's fast path). Bytes of
   * `tail` this window already holds are not counted twice. `gapLineFeeds`
   * and `gapLastByte` describe the unseen bytes, when the caller knows them.
   * The window may keep `tail` itself: the caller must not change it after.
   */
  adoptTail(tail: Uint8Array, total: number, gapLineFeeds = 0, gapLastByte = -1): void {
    if (!Number.isSafeInteger(total) || total < this.#total || tail.length > total) {
      throw new RangeError(`a tail of ${tail.length} bytes cannot end a stream of ${total} (already ${this.#total})`);
    }
    let start = total - tail.length;
    let data = tail;
    if (start < this.#total) {
      data = tail.subarray(this.#total - start);
      start = this.#total;
    }
    if (start > this.#total) {
      // A gap: the old tail is no longer adjacent to the end, and the head
      // stays as it is (short, if it never filled). Its line feeds are
      // counted by whoever saw it (gapLineFeeds).
      this.#lineFeeds += gapLineFeeds;
      // Unknown (the other writer's file is short: a full disk): take the
      // tail as starting a line rather than hide a line that may be whole.
      this.#beforeTail = gapLastByte === -1 ? LF : gapLastByte;
      this.#lastByte = gapLastByte;
      this.#headSealed = true;
      this.#tailLen = 0;
      this.#tailEnd = 0;
      this.#total = start;
      if (data.length > 0 && data.length <= this.tailBytes) {
        this.#takeAsRing(data);
        return;
      }
    }
    this.append(data);
  }

  /**
   * After a gap, the tail handed in becomes the ring itself, not a copy of
   * it: a tail of 64 MiB (collect --max-bytes 64MiB under the guardian)
   * would otherwise be held twice at the moment the stream ends. The caller
   * gives the bytes up (adoptTail's contract). Counted as append() counts.
   */
  #takeAsRing(data: Uint8Array): void {
    this.#lineFeeds += countLineFeeds(data);
    this.#lastByte = data[data.length - 1] as number;
    this.#total += data.length;
    this.#ring = data;
    this.#tailLen = data.length;
    this.#tailEnd = 0; // the ring is exactly full: the next byte would go at 0
  }

  #appendTail(data: Uint8Array): void {
    const limit = this.tailBytes;
    if (this.#ring.length < limit) {
      // Still linear (never wrapped): grow, or jump to full size when this
      // chunk would fill it anyway.
      const want = this.#tailLen + data.length;
      if (want <= limit) {
        this.#ring = grow(this.#ring, this.#tailLen, want, limit);
        this.#ring.set(data, this.#tailLen);
        this.#tailLen = want;
        this.#tailEnd = want === limit ? 0 : want;
        return;
      }
      const full = new Uint8Array(limit);
      const keepOld = Math.max(0, limit - data.length);
      full.set(this.#ring.subarray(this.#tailLen - keepOld, this.#tailLen), 0);
      this.#ring = full;
      this.#tailLen = keepOld;
      this.#tailEnd = keepOld;
    }
    const ring = this.#ring;
    const src = data.length > limit ? data.subarray(data.length - limit) : data;
    const first = Math.min(src.length, limit - this.#tailEnd);
    ring.set(src.subarray(0, first), this.#tailEnd);
    if (first < src.length) ring.set(src.subarray(first), 0);
    this.#tailEnd = (this.#tailEnd + src.length) % limit;
    this.#tailLen = Math.min(limit, this.#tailLen + src.length);
  }

  /**
   * Bytes at an absolute offset, from the head or the tail window. `lost` when
   * the offset lies between them; `pending`/`eof` at the end (closed decides).
   */
  read(offset: number, maxBytes: number, closed: boolean, spill: string | null): ReadResult {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset > this.#total) {
      throw new RangeError(`offset must be a whole number in 0..${this.#total}, got ${offset}`);
    }
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new RangeError(`maxBytes must be a whole number >= 1, got ${maxBytes}`);
    }
    if (offset === this.#total) return closed ? { kind: "eof", offset } : { kind: "pending", offset };
    if (offset < this.#headLen) {
      const end = Math.min(this.#headLen, offset + maxBytes);
      return { kind: "data", offset, bytes: this.#head.slice(offset, end), nextOffset: end };
    }
    const tailStart = this.tailStart;
    if (offset < tailStart) return { kind: "lost", offset, retainedFrom: tailStart, spill };
    const n = Math.min(this.#total - offset, maxBytes);
    return { kind: "data", offset, bytes: this.#tailCopy(offset - tailStart, n), nextOffset: offset + n };
  }

  /**
   * Head and tail as they stand. `shared`: views of the window's own bytes
   * where they lie in one piece (no copy of a 64 MiB tail), for a caller
   * that knows nothing will be appended any more and only reads them.
   */
  snapshot(shared = false): RetainedSnapshot {
    const elided = this.#total - this.#headLen - this.#tailLen;
    return {
      bytes: this.#total,
      head: shared ? this.#head.subarray(0, this.#headLen) : this.#head.slice(0, this.#headLen),
      tail: shared ? this.#tailView() : this.#tailCopy(0, this.#tailLen),
      elided,
      truncated: elided > 0,
      lineFeeds: this.#lineFeeds,
      lines: this.#lineFeeds + (this.#lastByte !== -1 && this.#lastByte !== LF ? 1 : 0),
      tailAtLineStart: this.#tailLen === this.#total || this.#beforeTail === LF ||
        (this.#beforeTail === -1 && this.#total - this.#tailLen === this.#headLen && this.#head[this.#headLen - 1] === LF),
    };
  }

  /** The whole tail window: a view of the ring where it does not wrap, else a copy. */
  #tailView(): Uint8Array {
    const cap = this.#ring.length;
    if (this.#tailLen === 0) return new Uint8Array(0);
    const start = (((this.#tailEnd - this.#tailLen) % cap) + cap) % cap;
    return start + this.#tailLen <= cap ? this.#ring.subarray(start, start + this.#tailLen) : this.#tailCopy(0, this.#tailLen);
  }

  /** `n` bytes starting `from` bytes into the tail window, linearised. */
  #tailCopy(from: number, n: number): Uint8Array {
    const out = new Uint8Array(n);
    if (n === 0) return out;
    const cap = this.#ring.length;
    const start = (((this.#tailEnd - this.#tailLen + from) % cap) + cap) % cap;
    const first = Math.min(n, cap - start);
    out.set(this.#ring.subarray(start, start + first), 0);
    if (first < n) out.set(this.#ring.subarray(0, n - first), first);
    return out;
  }
}

/** `buf` with room for `need` bytes (keeping the first `used`), capped at `limit`. */
function grow(buf: Uint8Array, used: number, need: number, limit: number): Uint8Array {
  if (need <= buf.length) return buf;
  const size = Math.min(limit, Math.max(need, buf.length * 2, INITIAL_CAPACITY));
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, used), 0);
  return next;
}
