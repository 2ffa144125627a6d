// The stdio view of a pipe tree, for `run` and `collect`: a SupervisedTree
// (handle.ts) whose child's streams follow the SpawnSpec (inherited, piped
// to the caller, or written into a sink with backpressure) and whose end is
// one promise with the exit facts. A SpawnBackend (process group, guardian)
// starts it; start.ts startPipeTree picks the backend by the one decision.
import type { Readable, Writable } from "node:stream";
import type { ExitFacts } from "../core/exit-facts.ts";
import type { SpawnSpec } from "./spec.ts";
import type { Receipt } from "../core/receipt.ts";
import type { SupervisedTree } from "./handle.ts";

/** How a tree is ended: the grace between the first signal and SIGKILL, and that first signal. */
export interface TerminateOptions {
  readonly graceMs: number;
  /** The first signal; SIGTERM unless one received by corral is being forwarded. */
  readonly signal?: NodeJS.Signals;
}

/** A spec whose program and working directory were checked and resolved. */
export interface ResolvedSpawn {
  readonly spec: SpawnSpec;
  /** Absolute path of argv[0]. */
  readonly file: string;
  readonly cwd: string;
}

/**
 * A started child and everything it leaves in its tree. Its output goes
 * where the spec says, so the tree's `output` event carries nothing; `exit`
 * and `done` come with `exited`, `stopped`/`continued` from the guardian.
 */
export interface SupervisedProcess extends SupervisedTree {
  readonly pid: number;
  /** The child's stdin when the spec asked for `pipe`, else null. */
  readonly stdin: Writable | null;
  /**
   * The child's stdout/stderr when the spec asked for `pipe`, else null. The
   * caller must read it: its EOF is part of `outputComplete`, and an unread
   * pipe holds `exited` back by up to the grace.
   */
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /**
   * Resolves once the child exited, its output reached EOF (or the grace for
   * that ran out) and, unless `leaveRunning`, whatever it left in its tree is
   * gone. Never rejects for the child's own failure.
   */
  readonly exited: Promise<SupervisionResult>;
  /**
   * TERM (or `firstSignal`) to the tree, the grace (default: the spec's),
   * KILL; resolves when the tree is gone. Idempotent: later calls get the
   * first call's promise.
   */
  terminate(graceMs?: number, firstSignal?: NodeJS.Signals): Promise<Receipt>;
}

/** The facts plus what cleaning up the tree found. */
export interface SupervisionResult {
  readonly facts: ExitFacts;
  /** Pids that could not be confirmed gone after SIGKILL (empty normally). */
  readonly uncertain: readonly number[];
  /** What went wrong in supervision itself (a failed syscall in the guardian), one sentence each. */
  readonly faults?: readonly string[];
}

/** One way of supervising children (process group, guardian). */
export interface SpawnBackend {
  readonly name: string;
  /** Starts the child; rejects with SpawnError when it could not start. */
  start(resolved: ResolvedSpawn): Promise<SupervisedProcess>;
}
