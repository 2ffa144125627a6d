// Whose turn it is to parse a flood. Each flooding session used to hand
// its whole batch to xterm, which parses it in slices of up to 12 ms, one
// per timer turn; eight floods ran their eight slices in one timers phase
// of the event loop before any socket was read, so a quiet session's
// screen read waited behind all of them (issue 9, `npm run bench --
// many-sessions`: p95 115-128 ms with 8 floods). Here the slices of every
// flood queue up and one runs per turn of the event loop (setImmediate: the
// poll phase, where sockets are served, comes between two turns), in the
// order they were asked for; a session asks for its next slice only once
// its last one is parsed, so the floods take turns round-robin.
import { setImmediate } from "node:timers";

/** A queue of parse slices, one run per event-loop turn. */
export class ParseTurns {
  #waiting: (() => void)[] = [];
  #next = 0;
  #scheduled = false;

  /** Runs `slice` on a later turn, after the slices asked for before it. */
  take(slice: () => void): void {
    this.#waiting.push(slice);
    this.#schedule();
  }

  /** Slices waiting for their turn. */
  get waiting(): number {
    return this.#waiting.length - this.#next;
  }

  #schedule(): void {
    if (this.#scheduled || this.waiting === 0) return;
    this.#scheduled = true;
    setImmediate(this.#turn);
  }

  readonly #turn = (): void => {
    this.#scheduled = false;
    const slice = this.#waiting[this.#next++];
    // The queue's front is an index (shift() is O(n)); compacted once it is drained.
    if (this.#next === this.#waiting.length) {
      this.#waiting = [];
      this.#next = 0;
    }
    this.#schedule();
    slice?.();
  };
}

/** The agent's one queue: every session's emulator takes its flood slices from it. */
export const parseTurns = new ParseTurns();
