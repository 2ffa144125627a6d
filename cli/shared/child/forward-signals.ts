// SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to corral go to the child's whole tree,
// then escalate to SIGKILL after the grace (terminate does both); corral
// itself stays alive until the tree is gone, so it never exits leaving it
// behind, and then dies of the same signal if the child did (cli/shared/signal-death.ts).
// The handlers go in before the child is spawned: a signal that arrives
// while it starts is held and delivered as soon as there is a group.
import process from "node:process";
import type { SupervisedTree } from "../../../lib/supervise/handle.ts";
import { FORWARDED_SIGNALS } from "../signal-death.ts";

/** Catches the forwarded signals for the lifetime of one child. */
export class SignalForwarder {
  #child: SupervisedTree | null = null;
  #forwarded: NodeJS.Signals | null = null;
  readonly #handlers = FORWARDED_SIGNALS.map((signal) => [signal, () => this.#received(signal)] as const);

  constructor() {
    for (const [signal, handler] of this.#handlers) process.on(signal, handler);
  }

  /** The first signal received (the one the child's tree got first), or null. */
  get forwarded(): NodeJS.Signals | null {
    return this.#forwarded;
  }

  /** The child now exists: deliver a signal that came while it started. */
  attach(child: SupervisedTree): void {
    this.#child = child;
    if (this.#forwarded !== null) void child.terminate(undefined, this.#forwarded);
  }

  /** Restores the runtime's default handling. */
  remove(): void {
    for (const [signal, handler] of this.#handlers) process.off(signal, handler);
  }

  #received(signal: NodeJS.Signals): void {
    // terminate() is idempotent: later signals neither restart nor shorten it.
    this.#forwarded ??= signal;
    void this.#child?.terminate(undefined, this.#forwarded);
  }
}
