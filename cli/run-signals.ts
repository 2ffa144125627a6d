// SIGINT/SIGTERM/SIGHUP sent to corral go to the child's whole group, then
// escalate to SIGKILL after the grace (terminate does both); corral itself
// stays alive until the tree is gone, so it never exits leaving it behind.
// The handlers go in before the child is spawned: a signal that arrives
// while it starts is held and delivered as soon as there is a group.
import process from "node:process";
import type { SupervisedProcess } from "../lib/spawn/backend.ts";

const FORWARDED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Catches the forwarded signals for the lifetime of one child. */
export class SignalForwarder {
  #child: SupervisedProcess | null = null;
  #pending: NodeJS.Signals | null = null;
  readonly #handlers = FORWARDED.map((signal) => [signal, () => this.#received(signal)] as const);

  constructor() {
    for (const [signal, handler] of this.#handlers) process.on(signal, handler);
  }

  /** The child now exists: deliver a signal that came while it started. */
  attach(child: SupervisedProcess): void {
    this.#child = child;
    if (this.#pending !== null) void child.terminate({ signal: this.#pending });
  }

  /** Restores the runtime's default handling. */
  remove(): void {
    for (const [signal, handler] of this.#handlers) process.off(signal, handler);
  }

  #received(signal: NodeJS.Signals): void {
    if (this.#child === null) this.#pending ??= signal;
    else void this.#child.terminate({ signal });
  }
}
