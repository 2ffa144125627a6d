// The recent past of a session's output, so a wait that starts after the
// output arrived (`--after N`) still finds it: the last bytes, raw, in a
// buffer that grows by doubling up to its bound. Raw, because keeping bytes
// costs a copy while turning them into lines (stream-lines.ts) costs far
// more: that is done only for a wait, over what it needs. A wait already
// running is handed every chunk as it arrives, so it never misses a line
// however fast they come; the bound only limits how far back a new wait can
// look, and a wait that asks for more is told so.

/** Bytes of output kept for waits that start later. */
export const WINDOW_MAX_BYTES = 1024 * 1024;

/** One session's output: its position and its last bytes. */
export class StreamWindow {
  #buffer = new Uint8Array(0);
  /** Bytes kept: the last `#kept` bytes before the position, in `#buffer` as a ring ending at `#head`. */
  #kept = 0;
  #head = 0;
  #position = 0;
  #finished = false;
  #listeners = new Set<(bytes: Uint8Array | null) => void>();

  constructor(readonly maxBytes: number = WINDOW_MAX_BYTES) {}

  /** Bytes the program has written so far (the output position). */
  get position(): number {
    return this.#position;
  }

  /** Position of the oldest byte still kept: output before it cannot be searched. */
  get keptFrom(): number {
    return this.#position - this.#kept;
  }

  /** The program exited: no more output comes. */
  get finished(): boolean {
    return this.#finished;
  }

  /** A re-adopted session's output starts at `position`: what came before was another agent's. */
  startAt(position: number): void {
    if (this.#position !== 0 || this.#kept !== 0) throw new RangeError("startAt needs an empty window");
    this.#position = position;
  }

  feed(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#position += bytes.length;
    this.#keep(bytes);
    for (const listener of this.#listeners) listener(bytes);
  }

  /** No more output: listeners get null (a last unfinished line is finished). */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    for (const listener of this.#listeners) listener(null);
  }

  /** The kept bytes from `from` (at least keptFrom) to the position. */
  read(from: number): Uint8Array {
    const start = Math.max(from, this.keptFrom);
    const length = this.#position - start;
    if (length <= 0) return new Uint8Array(0);
    const out = new Uint8Array(length);
    const size = this.#buffer.length;
    const begin = (this.#head - length + size) % size;
    const first = Math.min(length, size - begin);
    out.set(this.#buffer.subarray(begin, begin + first), 0);
    out.set(this.#buffer.subarray(0, length - first), first);
    return out;
  }

  /** Each chunk as it arrives, then null at the end; returns the unsubscribe function. */
  onBytes(listener: (bytes: Uint8Array | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #keep(bytes: Uint8Array): void {
    const chunk = bytes.length > this.maxBytes ? bytes.subarray(bytes.length - this.maxBytes) : bytes;
    const wanted = Math.min(this.maxBytes, this.#kept + chunk.length);
    if (wanted > this.#buffer.length) this.#grow(Math.min(this.maxBytes, Math.max(wanted, this.#buffer.length * 2, 4096)));
    const size = this.#buffer.length;
    const first = Math.min(chunk.length, size - this.#head);
    this.#buffer.set(chunk.subarray(0, first), this.#head);
    this.#buffer.set(chunk.subarray(first), 0);
    this.#head = (this.#head + chunk.length) % size;
    this.#kept = Math.min(size, this.#kept + chunk.length);
  }

  // A larger ring holding the same bytes, oldest first from 0.
  #grow(size: number): void {
    const kept = this.read(this.keptFrom);
    this.#buffer = new Uint8Array(size);
    this.#buffer.set(kept, 0);
    this.#head = kept.length % size;
    this.#kept = kept.length;
  }
}
