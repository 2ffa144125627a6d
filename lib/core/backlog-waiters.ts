// Senders waiting for a backlog of input to shrink: the one mechanism behind
// inputDrained() of the guardian's credit (lib/supervise/guardian/input.ts) and
// of node-pty's input pump (lib/supervise/node-pty/input-pump.ts).

export class BacklogWaiters {
  readonly #waiters: Array<{ limit: number; resolve: () => void }> = [];

  /** Resolves once the backlog is at most `limit` at a release (at once if `backlog` already is). */
  wait(backlog: number, limit: number): Promise<void> {
    if (backlog <= limit) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ limit, resolve }));
  }

  /** Releases every waiter whose limit `backlog` now meets; all of them when `all`. */
  release(backlog: number, all = false): void {
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i]!;
      if (all || backlog <= waiter.limit) {
        this.#waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}
