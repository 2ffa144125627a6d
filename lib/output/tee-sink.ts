// `collect --live`: every byte goes to the bounded store (head, tail, spill)
// and, unchanged and in order, to a writable (corral's own stdout/stderr), as
// tee(1) does. The producer pauses while either side is full, so memory stays
// bounded even when the reader of corral's output is slow.
import type { ByteSink } from "../supervise/spec.ts";

/** The part of a Node writable stream a tee needs. */
export interface TeeTarget {
  write(chunk: Uint8Array): boolean;
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

  constructor(readonly store: ByteSink, readonly target: TeeTarget) {
    target.once("error", () => this.#targetGone());
    target.once("close", () => this.#targetGone());
  }

  write(chunk: Uint8Array): boolean {
    if (!this.#gone && !this.target.destroyed) {
      // The target may hold the chunk until written; the store may too (spill
      // queue): both only read it, and producers hand over fresh chunks.
      if (!this.target.write(chunk) && !this.#targetFull) {
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
    if (!this.store.write(chunk) && !this.#storeFull) {
      this.#storeFull = true;
      this.store.onDrain(() => {
        this.#storeFull = false;
        this.#release();
      });
    }
    return !this.#targetFull && !this.#storeFull;
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
