// A reader that tails a live store from an offset until it closes: what
// `jobs` output replay and PTY tees need on top of read(). A gap below the
// tail window is reported once (or read back from the spill file), never
// silently skipped.
import type { BoundedStore, ReadResult } from "./bounded-store.ts";

/** What follow() yields: bytes, or the notice that a range is gone from memory. */
export type FollowedChunk = Extract<ReadResult, { kind: "data" } | { kind: "lost" }>;

/** How a follower reads: chunk size, and whether gaps are filled from the spill. */
export interface FollowOptions {
  /** Largest chunk yielded (default 1 MiB). */
  readonly maxBytes?: number;
  /** Serve lost ranges from the spill file when there is one (default true). */
  readonly throughSpill?: boolean;
}

/**
 * Yields the stream from `offset` as it arrives and returns at the end of a
 * closed store. Lost ranges yield one `lost` result and the reader goes on at
 * `retainedFrom`. Reading never consumes, so any number may follow one store.
 */
export async function* follow(
  store: BoundedStore,
  offset = 0,
  options: FollowOptions = {},
): AsyncGenerator<FollowedChunk, void, void> {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const throughSpill = options.throughSpill ?? true;
  let at = offset;
  for (;;) {
    const r = throughSpill ? await store.readThrough(at, maxBytes) : store.read(at, maxBytes);
    switch (r.kind) {
      case "data":
        yield r;
        at = r.nextOffset;
        break;
      case "lost":
        yield r;
        at = r.retainedFrom;
        break;
      case "pending":
        await store.whenBeyond(at);
        break;
      case "eof":
        return;
    }
  }
}
