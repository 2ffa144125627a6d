// Store-owned buffers for bytes whose source buffer is about to be reused
// (a socket read with Node's `onread`, say): the bytes are copied into 256 KiB
// slabs that are recycled once written, so a fast stream allocates nothing
// per chunk and leaves V8 no garbage to collect.

/** One recycled buffer; `refs` counts queued or in-flight views of it. */
export interface Slab {
  readonly buf: Uint8Array;
  used: number;
  refs: number;
  /** Full: no more appends; back to the pool when its last view is written. */
  retired: boolean;
}

// Small enough that a slab partly filled when the queue hits its mark holds
// little beyond it; large enough that a 1 GiB spill is 4096 iovecs.
export const SLAB_BYTES = 256 * 1024;

/** The slab being filled, and the free list. */
export class SlabPool {
  #current: Slab | null = null;
  #free: Slab[] = [];
  #allocated = 0;

  /** Slabs allocated so far: what a stream cost in fresh memory (recycling keeps it small). */
  get allocated(): number {
    return this.#allocated;
  }

  /** A slab with room for at least one byte. */
  current(): Slab {
    const cur = this.#current;
    if (cur !== null && cur.used < cur.buf.length) return cur;
    if (cur !== null) {
      cur.retired = true;
      if (cur.refs === 0) this.#recycle(cur);
    }
    const next = this.#free.pop() ?? this.#fresh();
    next.used = 0;
    next.retired = false;
    this.#current = next;
    return next;
  }

  /** A queued view of `slab` was written (or dropped). */
  release(slab: Slab): void {
    slab.refs--;
    if (slab.retired && slab.refs === 0) this.#recycle(slab);
  }

  #fresh(): Slab {
    this.#allocated++;
    return { buf: new Uint8Array(SLAB_BYTES), used: 0, refs: 0, retired: false };
  }

  #recycle(slab: Slab): void {
    // Every slab is kept for reuse: how many exist is bounded by how many were
    // in use at once (the spill queue's high-water mark, a tee target's
    // backpressure), and one dropped for the garbage collector would be
    // replaced by a fresh one long before V8 frees it: RSS would creep up.
    this.#free.push(slab);
  }
}
