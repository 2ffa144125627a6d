// What a job is, as the client sees it (`corral jobs --json`, the agent's
// replies). Types only: the protocol module imports them, and neither side
// needs a runtime API to read them.
import type { ExitFacts } from "../core/exit-facts.ts";
import type { Receipt } from "../core/receipt.ts";

/** A job's life as a shell names it: stopped only by a stop signal, done once exited. */
export type JobState = "running" | "stopped" | "done";

/** How the job's output is connected: a PTY (`--tty`) or one merged pipe. */
export type JobMode = "pipe" | "pty";

export type { Receipt };

/** A job, the same in every reply (schemas/job.schema.json). */
export interface JobInfo {
  /** `%N`, as every command names it. */
  readonly id: string;
  /** N of %N. */
  readonly number: number;
  readonly name: string | null;
  readonly state: JobState;
  /** "+" current job, "-" previous, as a shell marks them. */
  readonly mark: "+" | "-" | null;
  readonly pid: number;
  readonly argv: readonly string[];
  readonly mode: JobMode;
  /** The same `exit` object as `collect --json`, once done. */
  readonly exit: ExitFacts | null;
  /** The exit status (DESIGN.md 4.1) once done. */
  readonly status: number | null;
  /** Bytes of output so far (all of it, also what is no longer in memory). */
  readonly bytes: number;
  readonly spill: string | null;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** "guardian" or "process-group" (no stop/continue events there). */
  readonly backend: string;
  /** A client has the job's terminal now. */
  readonly attached: boolean;
  /**
   * Present on a job a new agent re-adopted when output was lost while no
   * agent held it: the byte offsets [from, to) are missing from the store
   * (and the spill stops at `from`); offsets after `to` are exact (issue 11).
   */
  readonly gap?: { readonly from: number; readonly to: number; readonly bytes: number };
  /**
   * Present when the spill file stopped taking bytes (a full disk): it holds
   * exactly the output before `from` (null: where is not known), and `error` says why.
   */
  readonly spillLost?: { readonly from: number | null; readonly error: string };
}

/** `%N` for a job id, the way every message names a job. */
export function jobLabel(id: number): string {
  return `%${id}`;
}
