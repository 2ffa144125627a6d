// The shape of where collected bytes go, and of a stream its supervisor keeps
// itself (StreamCapture), named here below the supervisor: the output store
// (bounded-store.ts) and the tee (tee-sink.ts) have them, and the
// supervisor's spec (lib/supervise/spec.ts) asks for them, so the arrow
// points down from the supervisor to the output, never back up; the store
// adopts a capture's result and knows nothing of the guardian.
import type { CountedStream } from "./file-lines.ts";

/**
 * Where collected bytes go (a BoundedStore fits). `write` returns false when
 * the sink wants the producer to pause; `onDrain(listener)` then calls the
 * listener once, when it can take more (BoundedStore has this shape).
 */
export interface ByteSink {
  write(chunk: Uint8Array): boolean;
  onDrain(listener: () => void): void;
  /**
   * write() for a producer that reuses its buffer: the sink copies what it
   * keeps before returning. A backend that finds it may read the child's
   * output into one reused buffer (lib/output OutputChannel) instead of a
   * fresh buffer per read, which keeps the process's memory flat.
   */
  writeTransient?(chunk: Uint8Array): boolean;
}

/** Where a stream kept by its supervisor ends up: the output store adopts the keeper's result. */
export interface CaptureResult {
  /** The stream's last `tail` bytes and its `total` length (and what the keeper counted), once it ended. */
  adoptTail(tail: Uint8Array, total: number, counted?: CountedStream): void;
  /** How far the kept stream got while it runs (for a heartbeat). */
  captureProgress?(total: number, lineFeeds: number, last: Uint8Array): void;
  /** The keeper could not write the whole spill file: it is incomplete from there on (`code`: the errno name). */
  externalSpillFailed(code: string, message: string): void;
}

/**
 * One stream kept by its supervisor (the guardian, native/capture.c) rather
 * than streamed through JavaScript: per stream, so stdout and stderr each say
 * their own limits. Only the head is written to the sink as it comes; the
 * tail, the total and the counts go to `result` at the end.
 */
export interface StreamCapture {
  /** Bytes kept from the start of the stream. */
  readonly headBytes: number;
  /** Bytes kept from its end. */
  readonly tailBytes: number;
  /** The head ends after this many lines when that comes first (collect --head-lines), or null. */
  readonly headLines: number | null;
  /** The tail is at most this many last lines (collect --tail-lines), or null. */
  readonly tailLines: number | null;
  /** A spill file the keeper writes itself (created beforehand), or null. */
  readonly spill: string | null;
  /** A descriptor the keeper also writes every byte to as it comes (collect --live), or null. */
  readonly tee: number | null;
  readonly result: CaptureResult;
}
