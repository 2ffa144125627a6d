// Output that arrives before anyone listens is held, not dropped: a child can
// write in the same read as its "started" event, before the caller's
// `await` resumes and attaches a listener. Every handle (pipe or terminal,
// any backend) buffers through this one class.

/** Bytes held until the first listener, then delivered as they come. */
export class EarlyOutput {
  #held: Uint8Array[] = [];
  #deliver: ((bytes: Uint8Array) => void) | undefined;

  /** Delivers `bytes` now when someone listens, else holds a copy (the producer may reuse its buffer). */
  push(bytes: Uint8Array): void {
    if (this.#deliver !== undefined) this.#deliver(bytes);
    else this.#held.push(bytes.slice());
  }

  /** From now on bytes go to `deliver`; what was held goes first, in order. */
  listen(deliver: (bytes: Uint8Array) => void): void {
    this.#deliver = deliver;
    for (const bytes of this.#held.splice(0)) deliver(bytes);
  }
}
