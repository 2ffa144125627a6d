// Moves a child's output into a ByteSink with backpressure, and tracks EOF
// as its own fact: the child exiting and its pipe closing are separate
// events (a grandchild may hold the pipe open for ever).
import type { Readable } from "node:stream";
import type { ByteSink } from "./spec.ts";
import { monotonicMs } from "./monotonic-ms.ts";

/** What the supervisor waits on after the child exits: one output stream's EOF. */
export interface Pump {
  readonly ended: Promise<void>;
  readonly atEof: boolean;
  /** Paused because the sink is full: the EOF grace does not run meanwhile. */
  readonly waitingOnSink: boolean;
  /** Stops reading a pipe someone else still holds, so corral can return. */
  abandon(): void;
}

/** A readable whose EOF the supervisor waits for after the child exits. */
export class OutputPump implements Pump {
  readonly ended: Promise<void>;
  readonly #stream: Readable;
  #atEof = false;
  #waitingOnSink = false;

  constructor(stream: Readable, sink: ByteSink | null) {
    this.#stream = stream;
    this.ended = new Promise((resolve) => {
      stream.once("end", resolve);
      stream.once("close", resolve);
      stream.once("error", resolve);
    }).then(() => {
      this.#atEof = true;
    });
    if (sink !== null) {
      stream.on("data", (chunk: Uint8Array) => {
        if (sink.write(chunk) || this.#waitingOnSink) return;
        this.#waitingOnSink = true;
        stream.pause();
        sink.onDrain(() => {
          this.#waitingOnSink = false;
          stream.resume();
        });
      });
    }
  }

  get atEof(): boolean {
    return this.#atEof;
  }

  /** Paused because the sink is full: corral, not the writer, is the bottleneck. */
  get waitingOnSink(): boolean {
    return this.#waitingOnSink;
  }

  /** Stops reading a pipe someone else still holds, so corral can return. */
  abandon(): void {
    if (!this.#atEof) this.#stream.destroy();
  }
}

// How often the EOF wait re-checks whether a sink is holding the pumps up.
const EOF_TICK_MS = 25;

/**
 * Resolves true when every pump reached EOF within `ms`, else false. Time
 * spent paused on a full sink (a slow spill disk) does not count: the grace
 * is for a writer that keeps the pipe open, not for corral's own backlog.
 */
export async function waitForEof(pumps: readonly Pump[], ms: number): Promise<boolean> {
  const all = Promise.all(pumps.map((p) => p.ended)).then(() => true as const);
  let left = ms;
  while (!pumps.every((p) => p.atEof)) {
    if (left <= 0) return false;
    const started = monotonicMs();
    if (await raceDelay(all, Math.min(left, EOF_TICK_MS))) return true;
    if (!pumps.some((p) => p.waitingOnSink)) left -= monotonicMs() - started;
  }
  return true;
}

async function raceDelay(done: Promise<true>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([done, expired]);
  } finally {
    clearTimeout(timer);
  }
}
