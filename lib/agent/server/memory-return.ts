// Memory given back when large request frames go. An unfinished request
// frame of up to 8 MiB is held in a buffer of its own (lib/core/frame.ts);
// when its connection closes, that buffer and the socket's read chunks are
// garbage, but an idle agent allocates almost nothing on the JavaScript heap,
// so the collector that would free them does not run, and the process keeps
// the pages: twenty such connections, five times over, took an agent from
// 57 to 184 MiB and it stayed there. So once the agent holds no unfinished
// large frame any more, it asks for one full collection (at most one per
// COLLECT_EVERY_MS), which frees those buffers and lets the allocator hand
// their pages back. Where the runtime offers no way to ask (the collector is
// not exposed), nothing is done: the memory is then reused by later frames.
import process from "node:process";

/** At most one asked-for collection in this time (a full collection of a small heap costs a few ms). */
const COLLECT_EVERY_MS = 1000;
/** Quiet time after the last release before collecting. */
const SETTLE_MS = 250;
/** A release smaller than this is left to the collector's own schedule. */
const WORTH_COLLECTING_BYTES = 1024 * 1024;

type Collect = () => void;

let collect: Collect | null | undefined;

/** The runtime's way to ask for a full collection, or null where there is none. */
async function collector(): Promise<Collect | null> {
  if (collect !== undefined) return collect;
  collect = null;
  const exposed = (globalThis as { gc?: unknown }).gc;
  const bun = (globalThis as { Bun?: { gc?: (force: boolean) => void } }).Bun;
  try {
    if (typeof exposed === "function") collect = () => (exposed as Collect)();
    else if (typeof bun?.gc === "function") collect = () => bun.gc!(true);
    else if (process.versions.node !== undefined && (globalThis as { Deno?: unknown }).Deno === undefined) {
      const [v8, vm] = await Promise.all([import("node:v8"), import("node:vm")]);
      v8.setFlagsFromString("--expose-gc");
      const gc = vm.runInNewContext("gc") as unknown;
      if (typeof gc === "function") collect = () => (gc as Collect)();
    }
  } catch {
    collect = null;
  }
  return collect;
}

/** Asks for collections after large frames were let go; one per agent. */
export class MemoryReturn {
  #released = 0;
  #last = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `bytes` of frame buffers were let go; `pending` is what every connection still holds. */
  released(bytes: number, pending: number): void {
    this.#released += bytes;
    if (pending > 0 || this.#released < WORTH_COLLECTING_BYTES) return;
    // After the last of a burst of closes (each one's read buffers are garbage by then), at most once per COLLECT_EVERY_MS.
    clearTimeout(this.#timer);
    const wait = Math.max(SETTLE_MS, this.#last + COLLECT_EVERY_MS - Date.now());
    this.#timer = setTimeout(() => void this.#collect(), wait);
    this.#timer.unref?.();
  }

  async #collect(): Promise<void> {
    this.#timer = undefined;
    this.#last = Date.now();
    this.#released = 0;
    (await collector())?.();
  }
}
