// The one termination result (DESIGN.md 4.2): the tree was seen gone, or it
// was not, and why; never a guess. Every supervisor (guardian census, process
// group, PTY session census) ends a terminate with one of these, and `reap`,
// `pty close` and the jobs print it.

/** What terminating something reports: seen gone, or not, and why. */
export interface Receipt {
  readonly status: "confirmed" | "uncertain";
  /** SIGKILL was needed. */
  readonly forced: boolean;
  /** Why it is uncertain (null when confirmed). */
  readonly reason: string | null;
}

/** A receipt from the pids still present after SIGKILL (a sweep without a census: only the pids are known). */
export function receiptOfLeftovers(forced: boolean, left: readonly number[]): Receipt {
  if (left.length === 0) return { status: "confirmed", forced, reason: null };
  return { status: "uncertain", forced, reason: `still present after SIGKILL: pids ${left.join(", ")}` };
}

/** A receipt for something that could not be checked at all. */
export function uncertain(reason: string, forced = false): Receipt {
  return { status: "uncertain", forced, reason };
}

/** A receipt for something seen gone. */
export function confirmed(forced = false): Receipt {
  return { status: "confirmed", forced, reason: null };
}
