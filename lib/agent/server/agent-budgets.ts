// The agent's global memory budgets (issue 15, item 5). Per-connection and
// per-session bounds alone let many connections or sessions add up: twenty
// half-sent 8 MiB frames, a client that never reads its replies, a few
// sessions at the largest size. These are the totals, shared by every
// connection and session of one agent, each with the error it gives.
import { AgentError } from "../protocol/messages.ts";

export interface AgentBudgets {
  /** Bytes of unfinished request frames held across all connections; past it the connection that pushed over is refused and closed. */
  readonly pendingFrameBytes: number;
  /** Reply bytes one connection has not taken yet; past it that connection's next request waits until its client reads (backpressure, no error). */
  readonly unsentReplyBytes: number;
  /**
   * Terminal cells the screens hold, visible rows and the scrollback lines they
   * keep, across every session held (exited ones too, until reaped). Past it the
   * least active give memory back (screen-pressure.ts); `open` and `resize` are
   * refused only when that is not enough.
   */
  readonly screenCells: number;
}

export const DEFAULT_BUDGETS: AgentBudgets = {
  // Four frames of the largest size at once; counted by declared size (lib/core/frame.ts).
  pendingFrameBytes: 32 * 1024 * 1024,
  unsentReplyBytes: 4 * 1024 * 1024,
  // One session at the largest size (1000x1000, scrollback 10,000: 11M cells,
  // about 160 MB) still fits beside thousands of 80x24 ones.
  screenCells: 16_000_000,
};

/** Bytes of unfinished frames, summed over connections. */
export class PendingFrameLedger {
  #total = 0;
  #held = new Map<object, number>();

  /** `onRelease(bytes, total)`: a holder let go of `bytes`; `total` is what all still hold. */
  constructor(readonly budget: number, readonly onRelease: (bytes: number, total: number) => void = () => {}) {}

  /** Records what `holder` now buffers; throws AgentError limit_exceeded when the total would pass the budget. */
  hold(holder: object, bytes: number): void {
    const before = this.#held.get(holder) ?? 0;
    const total = this.#total - before + bytes;
    if (bytes > before && total > this.budget) {
      throw new AgentError(
        "limit_exceeded",
        `the agent holds ${mib(this.#total)} of unfinished requests across its connections; this one would pass the budget of ${mib(this.budget)}; retry when others have finished`,
      );
    }
    this.#total = total;
    if (bytes === 0) this.#held.delete(holder);
    else this.#held.set(holder, bytes);
    if (bytes < before) this.onRelease(before - bytes, total);
  }

  release(holder: object): void {
    this.hold(holder, 0);
  }

  get total(): number {
    return this.#total;
  }
}

/** Throws AgentError limit_exceeded when `wanted` more cells would pass the screen budget. */
export function checkScreenCells(inUse: number, wanted: number, budget: number, what: string): void {
  if (inUse + wanted <= budget) return;
  throw new AgentError(
    "limit_exceeded",
    `${what} needs ${wanted} terminal cells (cols x (rows + scrollback)) but the agent's sessions already hold ${inUse} of its ${budget}; free some (corral pty close, then corral reap) or ask for a smaller size or scrollback`,
  );
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}
