// The shape of where collected bytes go, named here below the supervisor:
// the output store (bounded-store.ts) and the tee (tee-sink.ts) have it, and
// the supervisor's spec (lib/supervise/spec.ts) asks for it, so the arrow
// points down from the supervisor to the output, never back up.

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
