// How a run's stdio choices reach its guardian: which streams the guardian
// keeps itself (a spill file, a capture of head, tail and counts) and where
// each stream's output goes on corral's side (a sink, or a Readable). Kept
// apart from pipe-backend.ts, which maps the guardian's events onto a
// supervised process.
import { PassThrough, type Readable } from "node:stream";
import type { ByteSink, StdioChoice } from "../spec.ts";
import type { Guardian } from "./client.ts";
import type { StdioChoice as GuardianStdio } from "./protocol.ts";
/**
 * A sink whose spill file someone else writes (BoundedStore opened with
 * externalSpill): collect's fast path. The guardian makes that file the
 * child's stdout/stderr (--spill-direct), frames only the head, and reads the
 * tail and the size back; adoptTail() hands them to the store.
 */
export interface ExternalSpillSink extends ByteSink {
  readonly spillIsExternal: boolean;
  readonly spillPath: string | null;
  readonly headBytes: number;
  readonly tailBytes: number;
  /** The guardian may keep the stream (capture) though no spill file is involved. */
  readonly capturesNatively?: boolean;
  /** collect --live: a descriptor the guardian also writes every byte to (tee), or null. */
  readonly teeFd?: number | null;
  adoptTail(tail: Uint8Array, total: number, counted?: { lineFeeds: number; beforeTail: number }): void;
  /** How far the captured stream got while it runs (for a heartbeat); optional. */
  captureProgress?(total: number, lineFeeds: number, last: Uint8Array): void;
  /** The guardian could not write the whole spill file: it is incomplete from there on. */
  externalSpillFailed(code: string, message: string): void;
}

export function externalSpill(choice: StdioChoice | "stdout" | undefined): (ExternalSpillSink & { spillPath: string }) | null {
  if (typeof choice !== "object") return null;
  const sink = choice.sink as Partial<ExternalSpillSink>;
  if (sink.spillIsExternal !== true || typeof sink.spillPath !== "string" || typeof sink.adoptTail !== "function") return null;
  return sink as ExternalSpillSink & { spillPath: string };
}

/**
 * A sink whose stream the guardian keeps (native/capture.c): an external
 * spill (read, not spliced, so the lines are counted on the way) or a store
 * that asked for it (capturesNatively). Only the head is framed to us; the
 * tail and the counts come at EOF and go in through adoptTail().
 */
export function capturedSink(choice: StdioChoice | "stdout" | undefined): ExternalSpillSink | null {
  if (typeof choice !== "object") return null;
  const sink = choice.sink as Partial<ExternalSpillSink>;
  if (typeof sink.adoptTail !== "function" || typeof sink.headBytes !== "number" || typeof sink.tailBytes !== "number") return null;
  return sink.spillIsExternal === true || sink.capturesNatively === true ? sink as ExternalSpillSink : null;
}

export function guardianStdio(choice: StdioChoice | "inherit" | "pipe" | "ignore" | undefined): GuardianStdio {
  if (choice === undefined || choice === "inherit") return "inherit";
  return choice === "ignore" ? "null" : "pipe";
}

/** The end of a spilled or captured stream as the guardian reported it. */
export interface SpilledPicture {
  readonly tail: Uint8Array;
  readonly total: number;
  readonly error: { code: string; message: string } | null;
  readonly counted: { lineFeeds: number; beforeTail: number } | undefined;
}

/** Output of one stream: into the caller's sink (with backpressure), or a Readable. */
export class StreamRoute {
  readonly readable: Readable | null;
  readonly #sink: ByteSink | null;
  eof = false;
  /** The guardian itself reported EOF (not just a closed connection): only then is the output complete. */
  eofReported = false;
  /** Resolves at the stream's EOF (or when the guardian's connection closed). */
  readonly ended: Promise<void>;
  #resolveEnded!: () => void;

  constructor(choice: StdioChoice | undefined, readonly guardian: Guardian) {
    this.#sink = typeof choice === "object" ? choice.sink : null;
    this.readable = choice === "pipe" ? new PassThrough() : null;
    this.ended = new Promise((resolve) => (this.#resolveEnded = resolve));
  }

  push(bytes: Uint8Array): void {
    if (this.#sink !== null && !this.#sink.write(bytes)) {
      this.guardian.pause();
      this.#sink.onDrain(() => this.guardian.resume());
    }
    (this.readable as PassThrough | null)?.write(bytes);
  }

  end(): void {
    if (this.eof) return;
    this.eof = true;
    this.readable?.push(null);
    this.#resolveEnded();
  }
}

