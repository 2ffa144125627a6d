// Moves a child's output into a ByteSink with backpressure, and tracks EOF
// as its own fact: the child exiting and its pipe closing are separate
// events (a grandchild may hold the pipe open for ever).
import type { Readable } from "node:stream";
import type { ByteSink } from "./spec.ts";

/** A readable whose EOF the supervisor waits for after the child exits. */
export class OutputPump {
  readonly ended: Promise<void>;
  readonly #stream: Readable;
  #atEof = false;

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
      let paused = false;
      stream.on("data", (chunk: Uint8Array) => {
        if (sink.write(chunk) || paused) return;
        paused = true;
        stream.pause();
        sink.onDrain(() => {
          paused = false;
          stream.resume();
        });
      });
    }
  }

  get atEof(): boolean {
    return this.#atEof;
  }

  /** Stops reading a pipe someone else still holds, so corral can return. */
  abandon(): void {
    if (!this.#atEof) this.#stream.destroy();
  }
}

/** Resolves true when every pump reached EOF within `ms`, else false. */
export async function waitForEof(pumps: readonly OutputPump[], ms: number): Promise<boolean> {
  if (pumps.every((p) => p.atEof)) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const all = Promise.all(pumps.map((p) => p.ended)).then(() => true as const);
  try {
    return await Promise.race([all, expired]);
  } finally {
    clearTimeout(timer);
  }
}
