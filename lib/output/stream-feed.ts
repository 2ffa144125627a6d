// Pumps a readable byte stream (a child's stdout pipe, say) into a store with
// the store's backpressure honoured, so memory stays bounded however fast the
// producer is: the stream is paused while the spill queue is above its mark.
import type { BoundedStore } from "./bounded-store.ts";

/** The part of a Node readable stream the pump needs. */
export interface ByteSource {
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/**
 * Writes every chunk of `source` into `store` (two sources may feed one
 * store, as `--merge` does) and resolves at the source's end or close.
 * It does not close the stores: the caller decides when the stream is over
 * (for instance when a grandchild keeps the pipe open past the exit).
 */
export function feedStore(source: ByteSource, store: BoundedStore): Promise<void> {
  return new Promise((resolve, reject) => {
    let paused = false;
    source.on("data", (chunk) => {
      if (!store.write(chunk) && !paused) {
        paused = true;
        source.pause();
        store.onDrain(() => {
          paused = false;
          source.resume();
        });
      }
    });
    source.on("end", () => resolve());
    source.on("close", () => resolve());
    source.on("error", reject);
  });
}
