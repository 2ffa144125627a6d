// The tool calls the server is still answering. A client that writes its
// requests and then closes stdin (a script piping a batch into `corral
// mcp`, or a client shutting down) used to get no answer to any call still
// going: the server ended at the end of stdin. Now it answers what it can
// within a grace first (server.ts counts the calls, impl.ts waits).
export class CallsInFlight {
  #count = 0;
  #idle: Array<() => void> = [];

  /**
   * Counts `call` until it settles and its answer is written; returns it.
   * The SDK writes the answer a few promise ticks after the call settles,
   * and closing the server aborts every answer not yet written: counting
   * down only on the next turn of the event loop lets it go out first.
   */
  track<T>(call: Promise<T>): Promise<T> {
    this.#count++;
    const done = () => {
      this.#count--;
      if (this.#count === 0) for (const wake of this.#idle.splice(0)) wake();
    };
    const later = () => void setImmediate(done);
    call.then(later, later);
    return call;
  }

  /** Resolves once no call is in flight, or after `ms`, whichever comes first. */
  settled(ms: number): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
