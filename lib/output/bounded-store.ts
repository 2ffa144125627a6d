// One output stream held within fixed memory (DESIGN.md 4.3): head, tail ring,
// total count, and optionally the whole stream in a spill file. `collect`,
// background jobs and PTY tees all keep their output here.
// Longer than 300 lines because a store resumed at an offset (a re-adopted job, issue 11) needs the store's private parts.
import { type ReadResult, type RetainedSnapshot, RetainedWindow } from "./retained-window.ts";
import { readFileRange, SpillError, SpillFile } from "./spill-file.ts";
import { type CountedStream, unseenLines } from "./file-lines.ts";
import type { StreamCapture } from "./byte-sink.ts";

// Re-exported so callers import the whole store API from one module.
export type { ReadResult, RetainedSnapshot };
export { SpillError };

/** The limits of one stream (`--head-bytes`, `--max-bytes`, `--spill`). */
export interface BoundedStoreOptions {
  /** Bytes kept from the start of the stream (`--head-bytes`). */
  readonly headBytes: number;
  /** Bytes kept from the end of the stream (`--max-bytes`). */
  readonly tailBytes: number;
  /** File that receives the whole stream, byte-exact; created or truncated. */
  readonly spillPath?: string | undefined;
  /**
   * The spill file at `spillPath` is written by someone else (the guardian's
   * fast path): the store neither creates nor writes it, and reads lost ranges
   * back from it once the stream is closed. Feed the head with write() and
   * the end with adoptTail().
   */
  readonly externalSpill?: boolean;
  /**
   * With externalSpill: the other writer writes each byte to the file before
   * this store gets it (a job's guardian, native/job-spill.c), so lost
   * ranges are read back from the file while the stream is still open.
   */
  readonly spillWrittenAhead?: boolean;
  /**
   * The supervisor may keep this stream itself (the guardian's capture,
   * native/capture.c): it writes only the head here and ends the stream with
   * adoptTail(tail, total, counted). write() still takes every byte from a
   * supervisor that does not.
   */
  readonly nativeCapture?: boolean;
  /**
   * With nativeCapture or externalSpill: a descriptor the supervisor keeping
   * the stream also writes every byte to, as it comes (collect --live under
   * the guardian: the stream never passes through JavaScript).
   */
  readonly teeFd?: number;
  /**
   * Line limits a supervisor keeping the stream applies too (collect
   * --head-lines/--tail-lines, passed on by capture()): it then hands over a
   * head that ends at line N and a tail of the last N lines. The store itself
   * keeps by bytes; what is shown is narrowed by lines either way (showOutput).
   */
  readonly headLines?: number | undefined;
  readonly tailLines?: number | undefined;
  /** Spill bytes queued in memory above which write() asks the producer to pause. Default 512 KiB. */
  readonly highWaterMark?: number;
}

export type { CountedStream };

interface Follower {
  readonly offset: number;
  readonly resolve: () => void;
}

// Small enough to keep collect's RSS under 64 MB on the JavaScript path (the
// queued slabs are most of what a spill adds: 2 MiB measured 1.5 MiB more RSS
// than 1 MiB, and 1 MiB 0.5-1 MiB more than 512 KiB, at the same speed), big
// enough for writev batches of 256 KiB and more (the producer resumes at half
// the mark).
const DEFAULT_HIGH_WATER = 512 * 1024;

/** Per-stream bounded output store; see README "Bounded output". */
export class BoundedStore {
  readonly #window: RetainedWindow;
  readonly #spill: SpillFile | null;
  readonly #externalSpill: string | null;
  readonly #highWater: number;
  readonly #nativeCapture: boolean;
  #writtenAhead = false;
  #teeFd: number | null = null;
  #lines: { readonly head?: number | undefined; readonly tail?: number | undefined } = {};
  #externalError: SpillError | null = null;
  #externalStoppedAt: number | null = null;
  /** What the supervisor keeping the stream said it got so far (nativeCapture). */
  #captured: { total: number; lineFeeds: number; last: Uint8Array } | null = null;
  #closing: Promise<void> | null = null;
  #closed = false;
  #followers: Follower[] = [];

  private constructor(window: RetainedWindow, spill: SpillFile | null, highWater: number, external: string | null, nativeCapture: boolean) {
    this.#nativeCapture = nativeCapture;
    this.#window = window;
    this.#spill = spill;
    this.#externalSpill = external;
    this.#highWater = highWater;
  }

  /** Validates the limits and opens the spill file; a bad path rejects with SpillError naming it. */
  static async open(options: BoundedStoreOptions): Promise<BoundedStore> {
    const window = new RetainedWindow(options.headBytes, options.tailBytes);
    const highWater = options.highWaterMark ?? DEFAULT_HIGH_WATER;
    if (!Number.isSafeInteger(highWater) || highWater < 1) {
      throw new RangeError(`highWaterMark must be a whole number >= 1, got ${highWater}`);
    }
    if (options.externalSpill === true) {
      if (options.spillPath === undefined) throw new RangeError("externalSpill needs a spillPath");
      const store = new BoundedStore(window, null, highWater, options.spillPath, options.nativeCapture === true);
      store.#writtenAhead = options.spillWrittenAhead === true;
      return BoundedStore.#teeing(store, options);
    }
    const spill = options.spillPath === undefined ? null : await SpillFile.open(options.spillPath);
    // A spill this store writes needs every byte: nobody else may keep the stream.
    return BoundedStore.#teeing(new BoundedStore(window, spill, highWater, null, spill === null && options.nativeCapture === true), options);
  }

  static #teeing(store: BoundedStore, options: BoundedStoreOptions): BoundedStore {
    for (const [name, n] of [["headLines", options.headLines], ["tailLines", options.tailLines]] as const) {
      if (n !== undefined && (!Number.isSafeInteger(n) || n < 0)) throw new RangeError(`${name} must be a whole number >= 0, got ${n}`);
    }
    store.#lines = { head: options.headLines, tail: options.tailLines };
    if (options.teeFd === undefined) return store;
    if (!store.#nativeCapture && store.#externalSpill === null) throw new RangeError("teeFd needs nativeCapture or externalSpill");
    store.#teeFd = options.teeFd;
    return store;
  }

  /**
   * A store that continues a stream at offset `at` (a re-adopted job, issue
   * 11): the bytes before it are not in memory; with `spillPath`, the spill
   * file already holds them (its size is `at`) and is appended to.
   */
  static async resume(options: BoundedStoreOptions, at: number): Promise<BoundedStore> {
    const window = new RetainedWindow(options.headBytes, options.tailBytes);
    if (at > 0) window.adoptTail(new Uint8Array(0), at);
    if (options.externalSpill === true && options.spillPath !== undefined) {
      const store = new BoundedStore(window, null, options.highWaterMark ?? DEFAULT_HIGH_WATER, options.spillPath, false);
      store.#writtenAhead = options.spillWrittenAhead === true;
      return store;
    }
    const spill = options.spillPath === undefined ? null : await SpillFile.openAppend(options.spillPath);
    return new BoundedStore(window, spill, options.highWaterMark ?? DEFAULT_HIGH_WATER, null, false);
  }

  get totalBytes(): number {
    return this.#window.totalBytes;
  }

  /** Lines so far (line feeds, plus an unterminated last line); see RetainedSnapshot.lines. */
  get lines(): number {
    return this.#window.lines;
  }

  /** The last bytes held in memory, at most `n`: what a progress line quotes. */
  lastBytes(n: number): Uint8Array {
    return this.#window.lastBytes(n);
  }

  /**
   * The supervisor keeping this stream (nativeCapture) got `total` bytes with
   * `lineFeeds` line feeds so far, ending in `last`: progress() says so until
   * adoptTail() brings the real end.
   */
  captureProgress(total: number, lineFeeds: number, last: Uint8Array): void {
    this.#captured = { total, lineFeeds, last };
  }

  /**
   * Bytes, lines and last bytes (at most `n`) so far, for a heartbeat: the
   * store's own, or the keeping supervisor's when it got further.
   */
  progress(n: number): { bytes: number; lines: number; last: Uint8Array } {
    const c = this.#captured;
    if (c === null || c.total <= this.#window.totalBytes) {
      return { bytes: this.totalBytes, lines: this.lines, last: this.lastBytes(n) };
    }
    const last = c.last.length > 0 ? c.last.subarray(Math.max(0, c.last.length - n)) : this.lastBytes(n);
    const endsLine = last.length > 0 && last[last.length - 1] === 0x0a;
    return { bytes: c.total, lines: c.lineFeeds + (endsLine ? 0 : 1), last };
  }

  /**
   * The capture a supervisor may make of this stream instead of streaming
   * it here (opened with nativeCapture or externalSpill), with this store as
   * where its result goes; null: every byte comes through write().
   */
  capture(): StreamCapture | null {
    if (!this.#nativeCapture && this.#externalSpill === null) return null;
    return { headBytes: this.headBytes, tailBytes: this.tailBytes, headLines: this.#lines.head ?? null, tailLines: this.#lines.tail ?? null, spill: this.#externalSpill, tee: this.#teeFd, result: this };
  }

  /** The limits it was opened with (a native writer needs the same ones). */
  get headBytes(): number {
    return this.#window.headBytes;
  }

  get tailBytes(): number {
    return this.#window.tailBytes;
  }

  /** True when another writer fills the spill file (see externalSpill). */
  get spillIsExternal(): boolean {
    return this.#externalSpill !== null;
  }

  /** The descriptor the keeping supervisor also writes every byte to (see teeFd), or null. */
  get teeFd(): number | null {
    return this.#teeFd;
  }

  /** True when the supervisor may keep the stream and hand over its end (see nativeCapture). */
  get capturesNatively(): boolean {
    return this.#nativeCapture;
  }

  get spillPath(): string | null {
    return this.#spill?.path ?? this.#externalSpill;
  }

  /** Where a failed spill stops (it holds exactly the bytes before), when known; null when it did not fail. */
  get spillStoppedAt(): number | null {
    if (this.spillError === null) return null;
    return this.#spill !== null ? this.#spill.flushedBytes : this.#externalStoppedAt;
  }

  /** The first spill write error, if any: the spill is incomplete from there on. */
  get spillError(): SpillError | null {
    return this.#spill?.error ?? this.#externalError;
  }

  /**
   * The other writer of an external spill could not write all of it (a full
   * disk): the file is incomplete, and spillError says so as it would for a
   * spill this store wrote itself. `code` is the errno name ("ENOSPC").
   */
  externalSpillFailed(code: string, message: string, at?: number): void {
    if (this.#externalSpill === null || this.#externalError !== null) return;
    this.#externalStoppedAt = at ?? null;
    this.#externalError = new SpillError(this.#externalSpill, "write", Object.assign(new Error(message), { code }));
  }

  /** Head + tail bytes held (never more than headBytes + tailBytes). */
  get retainedBytes(): number {
    return this.#window.retainedBytes;
  }

  /**
   * Everything this store holds in memory: window buffers plus the spill
   * queue, or the recycled slabs copied chunks are queued in (writeTransient),
   * whichever is more (a producer uses one write or the other).
   */
  get memoryBytes(): number {
    const spill = this.#spill;
    return this.#window.capacityBytes + (spill === null ? 0 : Math.max(spill.queuedBytes, spill.slabBytes));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Appends a chunk; never blocks. With a spill file the chunk is queued by
   * reference, so the caller must not modify it afterwards. Returns false when
   * the spill queue is above the high-water mark: pause until drained().
   */
  write(chunk: Uint8Array): boolean {
    if (this.#closing !== null) throw new Error("write after close on a bounded output store");
    this.#window.append(chunk);
    if (this.#followers.length > 0) this.#wakeFollowers();
    if (this.#spill === null) return true;
    this.#spill.append(chunk);
    return this.#spill.queuedBytes <= this.#highWater;
  }

  /**
   * write() for a producer that reuses its buffer (a socket read with Node's
   * `onread`): the store copies what it keeps, into recycled slabs for the
   * spill, so `chunk` may be overwritten as soon as this returns.
   */
  writeTransient(chunk: Uint8Array): boolean {
    if (this.#closing !== null) throw new Error("write after close on a bounded output store");
    this.#window.append(chunk);
    if (this.#followers.length > 0) this.#wakeFollowers();
    if (this.#spill === null) return true;
    this.#spill.appendCopy(chunk);
    return this.#spill.queuedBytes <= this.#highWater;
  }

  /**
   * Ends the in-memory picture of a stream whose middle someone else spilled
   * or kept: the stream is `total` bytes long and `tail` is its last bytes
   * (see RetainedWindow.adoptTail). `counted`: what that keeper counted, so
   * the spill file need not be read again. Call close() after it.
   */
  adoptTail(tail: Uint8Array, total: number, counted?: CountedStream): void {
    if (this.#closing !== null) throw new Error("adoptTail after close on a bounded output store");
    const gapFrom = this.#window.totalBytes;
    const gapTo = total - tail.length;
    const gap = gapTo > gapFrom
      ? unseenLines({ spill: this.#externalSpill, from: gapFrom, to: gapTo, total, feedsBefore: this.#window.lineFeeds, tail, counted })
      : { lineFeeds: 0, lastByte: -1 };
    this.#window.adoptTail(tail, total, gap.lineFeeds, gap.lastByte);
    this.#captured = null;
    if (this.#followers.length > 0) this.#wakeFollowers();
  }

  /** Resolves when a paused producer may write again (spill queue at half the mark). */
  drained(): Promise<void> {
    return this.#spill === null ? Promise.resolve() : this.#spill.queueAtMost(this.#highWater / 2);
  }

  /** Callback form of drained(), for stream producers: `if (!write(c)) { pause(); onDrain(resume); }`. */
  onDrain(callback: () => void): void {
    void this.drained().then(callback);
  }

  /** Marks the end of the stream, flushes and closes the spill. Idempotent; rejects if the spill failed. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.#spill?.close();
      } finally {
        this.#closed = true;
        this.#wakeFollowers();
      }
    })();
    return this.#closing;
  }

  /** Head and tail as they stand: fresh copies while the stream is open, read-only views of the window once it is closed. */
  snapshot(): RetainedSnapshot {
    return this.#window.snapshot(this.#closed);
  }

  /**
   * Reads from memory only: `data` from the head or tail window, `lost` below
   * the tail window (pointing at the spill file), `pending` at the end while
   * open, `eof` at the end once closed. Never consumes.
   */
  read(offset: number, maxBytes: number): ReadResult {
    return this.#window.read(offset, maxBytes, this.#closed, this.spillPath);
  }

  /**
   * Like read(), but serves lost ranges from the spill file when there is one
   * and it has not failed (waiting for queued bytes to reach the disk).
   */
  async readThrough(offset: number, maxBytes: number): Promise<ReadResult> {
    const fromMemory = this.read(offset, maxBytes);
    if (fromMemory.kind !== "lost") return fromMemory;
    const end = Math.min(fromMemory.retainedFrom, offset + maxBytes);
    if (this.#externalSpill !== null) {
      // Someone else's file is complete only once the stream has ended (or, written ahead, up to what came here).
      if ((!this.#closed && !this.#writtenAhead) || this.#externalError !== null) return fromMemory;
      const bytes = await readFileRange(this.#externalSpill, offset, end - offset).catch(() => new Uint8Array(0));
      return bytes.length === 0 ? fromMemory : { kind: "data", offset, bytes, nextOffset: offset + bytes.length };
    }
    const spill = this.#spill;
    if (spill === null || spill.error !== null) return fromMemory;
    await spill.flushedTo(end);
    if (spill.error !== null || spill.flushedBytes < end) return fromMemory;
    const bytes = await spill.readAt(offset, end - offset);
    return { kind: "data", offset, bytes, nextOffset: offset + bytes.length };
  }

  /** Resolves once the stream holds more than `offset` bytes, or is closed (for followers). */
  whenBeyond(offset: number): Promise<void> {
    if (this.totalBytes > offset || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#followers.push({ offset, resolve }));
  }

  #wakeFollowers(): void {
    const total = this.totalBytes;
    const keep: Follower[] = [];
    for (const f of this.#followers) {
      if (total > f.offset || this.#closed) f.resolve();
      else keep.push(f);
    }
    this.#followers = keep;
  }
}
