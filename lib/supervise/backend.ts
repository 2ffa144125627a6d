// The seam between "what to run" and "how it is supervised". run, collect
// and jobs talk to a SpawnBackend; the process-group backend (pure
// JavaScript) is the default, and a guardian-backed one can replace it
// without those callers changing.
import type { Readable, Writable } from "node:stream";
import type { ExitFacts } from "../core/exit-facts.ts";
import type { SpawnSpec } from "./spec.ts";
import type { TerminateOptions } from "./process-group/terminate.ts";
import type { Receipt } from "../core/receipt.ts";

/** A spec whose program and working directory were checked and resolved. */
export interface ResolvedSpawn {
  readonly spec: SpawnSpec;
  /** Absolute path of argv[0]. */
  readonly file: string;
  readonly cwd: string;
}

/** A started child and everything it leaves in its tree. */
export interface SupervisedProcess {
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
   * TERM (or `options.signal`) to the tree, the grace, KILL; resolves when the
   * tree is gone. Idempotent: later calls get the first call's promise.
   */
  terminate(options?: Partial<TerminateOptions>): Promise<Receipt>;
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
