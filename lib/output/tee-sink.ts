// `collect --live`: every byte goes to the bounded store (head, tail, spill)
// and, unchanged and in order, to a writable (corral's own stdout/stderr), as
// tee(1) does. The producer pauses while either side is full, so memory stays
// bounded even when the reader of corral's output is slow.
import type { ByteSink } from "./byte-sink.ts";
import { SlabPool } from "./spill-slabs.ts";

/** The part of a Node writable stream a tee needs. */
export interface TeeTarget {
  /** `done` runs once the target is finished with `chunk` (written, or failed). */
  write(chunk: Uint8Array, done?: (error?: Error | null) => void): boolean;
  once(event: "drain" | "close" | "error", listener: () => void): unknown;
  off(event: "drain" | "close" | "error", listener: () => void): unknown;
  readonly destroyed: boolean;
}

/** A ByteSink writing to `store` and `target`; a target that went away (EPIPE) stops getting bytes, the store does not. */
export class TeeSink implements ByteSink {
  #targetFull = false;
  #storeFull = false;
  #waiters: (() => void)[] = [];
  #gone = false;
  /** Copies of transient chunks on their way to the target, recycled once it wrote them. */
  #slabs: SlabPool | null = null;

  constructor(readonly store: ByteSink, readonly target: TeeTarget) {
    target.once("error", () => this.#targetGone());
    target.once("close", () => this.#targetGone());
  }

  write(chunk: Uint8Array): boolean {
    // The target may hold the chunk until written; the store may too (spill
    // queue): both only read it, and producers hand over fresh chunks.
    if (this.#targetTakes()) this.#toTarget(chunk);
    this.#storeSaid(this.store.write(chunk));
    return !this.#targetFull && !this.#storeFull;
  }

  /**
   * write() for a producer that reuses its buffer (an OutputChannel): the
   * target gets a copy in a recycled 256 KiB slab, freed for reuse once the
   * target has written it, and the store copies what it keeps itself. The
   * target's own backpressure bounds the slabs in flight, so a 1 GiB stream
   * allocates a few slabs, not a buffer per read.
   */
  writeTransient(chunk: Uint8Array): boolean {
    if (this.#targetTakes()) {
      const slabs = (this.#slabs ??= new SlabPool());
      for (let at = 0; at < chunk.length;) {
        const slab = slabs.current();
        const n = Math.min(chunk.length - at, slab.buf.length - slab.used);
        const copy = slab.buf.subarray(slab.used, slab.used + n);
        copy.set(chunk.subarray(at, at + n));
        slab.used += n;
        slab.refs++;
        at += n;
        this.#toTarget(copy, () => slabs.release(slab));
      }
    }
    const store = this.store;
    this.#storeSaid(store.writeTransient === undefined ? store.write(chunk.slice()) : store.writeTransient(chunk));
    return !this.#targetFull && !this.#storeFull;
  }

  /** Slabs (256 KiB) allocated for the target's copies so far (writeTransient); stays small at any volume. */
  get slabsAllocated(): number {
    return this.#slabs?.allocated ?? 0;
  }

  #targetTakes(): boolean {
    return !this.#gone && !this.target.destroyed;
  }

  #toTarget(chunk: Uint8Array, done?: () => void): void {
    const taken = done === undefined ? this.target.write(chunk) : this.target.write(chunk, () => done());
    if (!taken && !this.#targetFull) {
      this.#targetFull = true;
      const drained = () => {
        this.target.off("close", drained);
        this.#targetFull = false;
        this.#release();
      };
      this.target.once("drain", drained);
      this.target.once("close", drained);
    }
  }

  #storeSaid(accepted: boolean): void {
    if (accepted || this.#storeFull) return;
    this.#storeFull = true;
    this.store.onDrain(() => {
      this.#storeFull = false;
      this.#release();
    });
  }

  onDrain(listener: () => void): void {
    if (!this.#targetFull && !this.#storeFull) listener();
    else this.#waiters.push(listener);
  }

  #targetGone(): void {
    this.#gone = true;
    this.#targetFull = false;
    this.#release();
  }

  #release(): void {
    if (this.#targetFull || this.#storeFull) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }
}
