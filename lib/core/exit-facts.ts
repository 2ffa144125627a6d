// The facts corral records about every process it ran (DESIGN.md 4.1, 4.2).
// "The child exited" and "its output reached EOF" stay separate facts: a
// grandchild holding a pipe open must not hang the caller. Here in lib/core,
// the shared vocabulary (DESIGN.md section 3), so that lib/supervise
// and lib/supervise/guardian both import it without a folder cycle. Types only: the status a
// set of facts gives needs the runtime's signal numbers (lib/runtime/signals.ts).

export interface ExitFacts {
  /** Exit code when the child exited normally, else null. */
  readonly code: number | null;
  /** Signal name (e.g. "SIGKILL") when the child was killed by one, else null. */
  readonly signal: string | null;
  /** corral's timeout fired. */
  readonly timedOut: boolean;
  /** SIGKILL was needed: something in the tree outlived SIGTERM and the grace. */
  readonly forced: boolean;
  readonly durationMs: number;
  /** Every output pipe reached EOF (false when a descendant kept one open). */
  readonly outputComplete: boolean;
  /**
   * With `timedOut`: how many processes were in the tree when corral's
   * timeout fired (each got SIGTERM). Absent otherwise.
   */
  readonly signalled?: number;
  /**
   * Processes that outlived the command holding its output open, which
   * corral waited the grace for and then terminated: pid and argv. Absent
   * when there were none.
   */
  readonly survivors?: readonly { readonly pid: number; readonly argv: readonly string[] }[];
  /**
   * Present only when the supervisor (the guardian) died before it could
   * report: then code and signal are null unless its exit was already known,
   * and corral terminated what it could still identify itself.
   */
  readonly supervisorLost?: SupervisorLoss;
}

/** The supervisor died (SIGKILL, the OOM killer): its own fact, never dressed up as the child's status. */
export interface SupervisorLoss {
  /** The guardian's pid. */
  readonly pid: number;
  /** How it ended, in words ("killed by SIGKILL"). */
  readonly cause: string;
  /** What corral then did about the tree itself, and what it could not do. */
  readonly cleanup: string;
}
