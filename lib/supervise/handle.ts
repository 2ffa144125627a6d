// The one handle for a supervised process tree (issue 10), pipe or terminal,
// job or session or `run`'s child: PTY sessions, jobs, run and collect hold
// one of these and never know which supervisor is behind it (the guardian for
// pipes and terminals, the process group for pipes, node-pty for terminals).
// One event vocabulary, one terminate that returns the one Receipt (DESIGN.md
// 4.2), so a fix to termination has one contract to honour
// (test/lib/supervise/supervise-handle.test.ts runs it against each). A pipe
// tree started for `run` and `collect` also has its streams and its end as
// optional fields (stdin, stdout, stderr, exited): one type for every mode.
// Each backend starts its trees through its one adapter (adapter.ts).
import type { Readable, Writable } from "node:stream";
import type { ExitFacts, SupervisorLoss } from "../core/exit-facts.ts";
import type { Receipt } from "../core/receipt.ts";

/** How a tree is ended: the grace between the first signal and SIGKILL, and that first signal. */
export interface TerminateOptions {
  readonly graceMs: number;
  /** The first signal; SIGTERM unless one received by corral is being forwarded. */
  readonly signal?: NodeJS.Signals;
}

/** A tree's child speaks through pipes (stdout and stderr merged) or a terminal. */
export type TreeMode = "pipe" | "pty";

/** Who supervises a tree; `probe`, `pty list` and `jobs` report it. */
export type SupervisorName = "guardian" | "process-group" | "node-pty";

/** The supervisors that can hold a terminal. */
export type PtyBackendName = Extract<SupervisorName, "guardian" | "node-pty">;

/** Whom a signal is aimed at: the terminal's foreground job, or everything in the tree. */
export type SignalTarget = "foreground" | "tree";

/** How the program ended, as its supervisor saw it. */
export interface TreeExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Every byte the program wrote reached the output listener before this exit was reported. */
  readonly outputComplete: boolean;
  /** The supervisor was lost before it could report the end (code and signal are then null). */
  readonly supervisorLost?: SupervisorLoss;
  /** Code and signal are null and the supervisor said why. */
  readonly unknownWhy?: string;
}

/**
 * How to reach the guardian that owns a tree again (issue 11): a new agent
 * re-adopts it with these. Only adoptable guardian handles have one.
 */
export interface GuardianLink {
  readonly guardianPid: number;
  readonly socket: string;
  readonly token: string;
  readonly child: { readonly pid: number; readonly pgid: number; readonly sid: number; readonly startTime: number };
}

/** What a supervised tree reports. Output before the first listener is held (early-output.ts), not dropped. */
export interface SupervisedTreeEvents {
  /** Bytes in order: the terminal's, or the merged pipe's. */
  output(bytes: Uint8Array): void;
  /** The program stopped (Ctrl-Z, SIGSTOP); `signal` is the stop signal's number. Only the guardian reports it. */
  stopped(signal: number): void;
  continued(): void;
  /** Once: the program exited, after the last output event (`outputComplete` says if nothing was lost). */
  exit(exit: TreeExit): void;
  /**
   * Once, for trees that sweep themselves when the program exits (jobs):
   * the exit facts and the receipt of terminating what the program left
   * running. A terminal session sweeps by calling terminate instead.
   */
  done(facts: ExitFacts, receipt: Receipt): void;
}

/** The facts of a pipe tree's end plus what cleaning up the tree found (`exited`). */
export interface SupervisionResult {
  readonly facts: ExitFacts;
  /** Pids that could not be confirmed gone after SIGKILL (empty normally). */
  readonly uncertain: readonly number[];
  /** What went wrong in supervision itself (a failed syscall in the guardian), one sentence each. */
  readonly faults?: readonly string[];
}

/** One supervised process tree, whichever supervisor holds it, in whichever mode. */
export interface SupervisedTree {
  readonly pid: number;
  readonly backend: SupervisorName;
  /** Present when the tree's guardian outlives this process and can be re-adopted. */
  readonly link?: GuardianLink | undefined;
  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void;
  /** Bytes for the terminal; a pipe tree without stdin drops them. */
  write(data: Uint8Array | string): void;
  /** Resolves once the input written so far is on its way (bounded buffering); absent: no backpressure (node-pty). */
  inputDrained?(): Promise<void>;
  /**
   * Resolves once every byte the program wrote before the call has been
   * delivered as `output`; absent where the supervisor cannot tell (node-pty
   * reads the terminal on its own schedule).
   */
  outputBarrier?(): Promise<void>;
  /** The terminal's size; nothing for a pipe tree. */
  resize(cols: number, rows: number): void;
  /**
   * Sends `signal` (e.g. "SIGHUP") to the target. A terminal handle does
   * nothing when the tree is gone; a job's handle rejects when the signal
   * cannot be given (the process group refuses stop signals: without stop
   * events nobody would learn that it stopped).
   */
  signal(signal: string, target: SignalTarget): Promise<void>;
  /**
   * SIGTERM (or `firstSignal`: a signal the person's corral forwards) to the
   * whole tree, SIGKILL what is left after `graceMs`; resolves when the tree
   * is gone, or says which members could not be confirmed gone. Safe to
   * call again: a tree already gone answers confirmed. The grace defaults to
   * the tree's own (its spec's or launch's), else lib/core's DEFAULT_GRACE_MS.
   */
  terminate(graceMs?: number, firstSignal?: NodeJS.Signals): Promise<Receipt>;
  /** Stop reading the tree's output (flow control) until resume(). */
  pause(): void;
  resume(): void;
  /** Releases the terminal or the guardian's connection; the program must have exited. */
  dispose(): void;
  /**
   * A pipe tree's streams, as its spec asked (`run`, `collect`): the child's
   * stdin when asked for `pipe`, its stdout/stderr when asked for `pipe` (the
   * caller must read them: their EOF is part of `outputComplete`), else null;
   * absent on a terminal or a job, whose output comes as `output` events.
   */
  readonly stdin?: Writable | null;
  readonly stdout?: Readable | null;
  readonly stderr?: Readable | null;
  /**
   * A pipe tree's end: resolves once the child exited, its output reached
   * EOF (or the grace for that ran out) and, unless `leaveRunning`, whatever
   * it left in its tree is gone. Never rejects for the child's own failure.
   * Absent on a terminal or a job, which say `exit` and `done` instead.
   */
  readonly exited?: Promise<SupervisionResult>;
}

/** A tree that sweeps itself when its program exits (a job): everything needed to start it. */
export interface TreeLaunch {
  readonly argv: readonly [string, ...string[]];
  readonly cwd: string;
  /** The child's whole environment, already scrubbed. */
  readonly env: Readonly<Record<string, string>>;
  readonly mode: TreeMode;
  readonly cols: number;
  readonly rows: number;
  /** SIGTERM to SIGKILL, for the sweep after the exit. */
  readonly graceMs: number;
  /** Directory for guardian sockets and records (the agent's state dir). */
  readonly stateDir: string;
  /** How long an adoptable guardian waits for a new agent (config `agent.orphan-wait`); absent: as long as the program lives. */
  readonly orphanWaitMs?: number;
}

/** What a terminal backend needs to start a program on a new PTY. */
export interface PtySpawnRequest {
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The complete environment of the child (already scrubbed, TERM set). */
  readonly env: Readonly<Record<string, string>>;
  readonly cols: number;
  readonly rows: number;
}

/** A way of starting programs on PTYs: a backend adapter's startSession at one placement (start.ts ptyBackendOf). */
export interface PtyBackend {
  readonly name: PtyBackendName;
  /** Rejects with SpawnError (spawn-error.ts) when the program cannot be started. */
  spawn(request: PtySpawnRequest): Promise<SupervisedTree>;
}
