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

/**
 * What terminating a tree found, before it is told as a Receipt: the pids
 * that could not be confirmed gone are kept as numbers, for `run`'s stderr
 * line and the exit facts. Every handle (pipe or terminal, any backend)
 * returns this from terminate.
 */
export interface TerminationReport {
  /** SIGKILL was needed: something outlived the first signal and the grace. */
  readonly forced: boolean;
  /** Pids still present after SIGKILL: could not be confirmed gone ("uncertain"), never a guess. */
  readonly uncertain: readonly number[];
}

/** A report told as a receipt (no census: only the pids are known). */
export function receiptOfReport(report: TerminationReport): Receipt {
  if (report.uncertain.length === 0) return { status: "confirmed", forced: report.forced, reason: null };
  return { status: "uncertain", forced: report.forced, reason: `still present after SIGKILL: pids ${report.uncertain.join(", ")}` };
}

/** A receipt for something that could not be checked at all. */
export function uncertain(reason: string, forced = false): Receipt {
  return { status: "uncertain", forced, reason };
}

/** A receipt for something seen gone. */
export function confirmed(forced = false): Receipt {
  return { status: "confirmed", forced, reason: null };
}
