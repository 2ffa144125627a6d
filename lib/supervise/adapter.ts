// What each backend gives the supervisor: one adapter per backend
// (guardian/tree.ts, process-group/tree.ts, node-pty/tree.ts), each starting
// the trees it can hold in whichever mode (a pipe tree for `run` and
// `collect`, a job that sweeps itself, a terminal session its owner sweeps)
// and handing back the one handle (handle.ts SupervisedTree). start.ts picks
// the adapter by the one decision (decide.ts); nothing else names a backend.
import type { PtySpawnRequest, SupervisedTree, TreeLaunch } from "./handle.ts";
import type { JobFacts } from "./guardian-records.ts";
import type { ResolvedSpawn } from "./spec.ts";

/** Where a terminal session's guardian keeps its socket, and whether a new agent can take it over. */
export interface SessionPlacement {
  readonly stateDir?: string;
  /** Guardians that outlive this process and can be re-adopted (the agent's sessions, issue 11). */
  readonly adoptable?: boolean;
  /** How long an adoptable guardian waits for a new owner (config `agent.orphan-wait`). */
  readonly orphanWaitMs?: number;
}

/** Told once when a spill written by the supervisor stops: its size, and the errno name and text. */
export type SpillStopped = (spilled: number, code: string, message: string) => void;

/** A tree that sweeps itself (a job): the launch, and the record a new agent takes it over from. */
export interface JobTreeSpec {
  readonly launch: TreeLaunch;
  /** The job's number, written in the guardian's record for `reap`. */
  readonly jobId: number;
  /** Present: the guardian is adoptable, and a new agent rebuilds the job from these (issue 11). */
  readonly facts?: JobFacts;
  /** The guardian's spill file stopped taking bytes at `spilled` (facts.spillByGuardian). */
  readonly onSpillStopped?: SpillStopped;
}

/**
 * One backend's way of starting trees. A mode it cannot hold is absent
 * (the process group has no terminal, node-pty only sessions); each start
 * rejects with SpawnError (spawn-error.ts) when the program cannot start.
 */
export interface TreeAdapter {
  readonly name: "guardian" | "process-group" | "node-pty";
  /** A pipe tree whose streams follow the spec (`run`, `collect`): the handle has stdin/stdout/stderr and `exited`. */
  readonly startPipe?: (resolved: ResolvedSpawn) => Promise<SupervisedTree>;
  /** A tree that sweeps itself when its program exits, then says `done` (a job). */
  readonly startJob?: (job: JobTreeSpec) => Promise<SupervisedTree>;
  /** A terminal session, swept by its owner's terminate. */
  readonly startSession?: (request: PtySpawnRequest, placement: SessionPlacement) => Promise<SupervisedTree>;
}
