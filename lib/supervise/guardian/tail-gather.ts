// A captured or spilled stream's tail as the guardian sends it at EOF (a
// run of `tail` frames, then `spilled`), gathered straight into one buffer
// of the store's tail size. Keeping the frames and joining them at the end
// held the tail twice at that moment (collect --max-bytes 64MiB: 64 MiB of
// frames and their 64 MiB join): now each frame is garbage once copied.
// The buffer is made at the first frame at the full tail size; the runtimes
// zero such a buffer lazily (untouched pages cost no memory: checked with
// a 256 MiB Uint8Array under Node, Deno and Bun), so a short tail costs
// what it holds.

export class TailGather {
  #buffer: Uint8Array | null = null;
  #filled = 0;

  /** `tailBytes`: the most the guardian sends (the store's tail size); 0 when unknown. */
  constructor(readonly tailBytes: number) {}

  push(bytes: Uint8Array): void {
    const need = this.#filled + bytes.length;
    const buffer = this.#buffer;
    if (buffer === null || need > buffer.length) {
      // More than the tail size (a guardian that sends more) or no size: grow by doubling.
      const grown = new Uint8Array(Math.max(need, this.tailBytes, 2 * (buffer?.length ?? 0)));
      if (buffer !== null) grown.set(buffer.subarray(0, this.#filled), 0);
      this.#buffer = grown;
    }
    this.#buffer!.set(bytes, this.#filled);
    this.#filled = need;
  }

  /** The tail gathered since the last take(), handed over (a view of the buffer); the gatherer starts anew. */
  take(): Uint8Array {
    const tail = this.#buffer === null ? new Uint8Array(0) : this.#buffer.subarray(0, this.#filled);
    this.#buffer = null;
    this.#filled = 0;
    return tail;
  }
}
