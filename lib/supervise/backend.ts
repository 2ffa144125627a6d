// How a pipe tree for `run` and `collect` is started: a SpawnBackend (process
// group, guardian) takes a resolved SpawnSpec and gives the one handle
// (handle.ts) with its streams following the spec (inherited, piped to the
// caller, or written into a sink with backpressure) and its end as one
// promise with the exit facts; start.ts startPipeTree picks the backend by
// the one decision.
import type { Readable, Writable } from "node:stream";
import type { SpawnSpec } from "./spec.ts";
import type { SupervisedTree, SupervisionResult } from "./handle.ts";

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
 * The handle (handle.ts SupervisedTree) of a pipe tree started for `run` and
 * `collect`, with its streams and its end present: its output goes where the
 * spec says, so the tree's `output` event carries nothing; `exit` and `done`
 * come with `exited`, `stopped`/`continued` from the guardian.
 */
export type SupervisedProcess = SupervisedTree & {
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly exited: Promise<SupervisionResult>;
};

export type { SupervisionResult };

/** One way of supervising children (process group, guardian). */
export interface SpawnBackend {
  readonly name: string;
  /** Starts the child; rejects with SpawnError when it could not start. */
  start(resolved: ResolvedSpawn): Promise<SupervisedProcess>;
}
