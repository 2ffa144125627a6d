// The seam between a job and what supervises its process: the guardian
// (pipe or PTY, exact stop/continue events, census receipts) or, where no
// guardian is built, lib/supervise's process group (pipe only). A Job never
// knows which one it has.
import type { ExitFacts } from "../core/exit-facts.ts";
import type { JobMode, Receipt } from "./job-info.ts";

/** Everything a job needs to start; the environment is the caller's, already scrubbed. */
export interface JobLaunch {
  readonly argv: readonly [string, ...string[]];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly mode: JobMode;
  readonly cols: number;
  readonly rows: number;
  readonly graceMs: number;
  /** Directory for guardian sockets and records (the agent's state dir). */
  readonly stateDir: string;
  /** How long an adoptable guardian waits for a new agent (config `agent.orphan-wait`); absent: as long as the program lives. */
  readonly orphanWaitMs?: number;
}

/** What a supervised job process reports. */
export interface JobProcessEvents {
  output(bytes: Uint8Array): void;
  /** The job stopped (Ctrl-Z, SIGSTOP); `signal` is the stop signal's number. */
  stopped(signal: number): void;
  continued(): void;
  /** Once: the process exited, its output drained, the rest of its tree terminated. */
  done(facts: ExitFacts, receipt: Receipt): void;
}

/** A running job's process, whichever backend supervises it. */
export interface JobProcess {
  readonly pid: number;
  readonly backend: "guardian" | "process-group";
  on<K extends keyof JobProcessEvents>(event: K, listener: JobProcessEvents[K]): void;
  /** Bytes for the terminal (PTY jobs); ignored for pipe jobs. */
  write(bytes: Uint8Array): void;
  resize(cols: number, rows: number): void;
  /** SIGCONT to every process of the job. */
  continueAll(): Promise<void>;
  /** SIGSTOP to every process of the job: Ctrl-Z for a job without a terminal of its own. */
  stopAll(): Promise<void>;
  /**
   * SIGTERM (or `firstSignal`: a signal the person's corral forwards) to the
   * whole tree, SIGKILL after the grace; the receipt says if it was seen gone.
   */
  terminate(graceMs: number, firstSignal?: NodeJS.Signals): Promise<Receipt>;
  /** Flow control while the output store's spill catches up. */
  pause(): void;
  resume(): void;
}
