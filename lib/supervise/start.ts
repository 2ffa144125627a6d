// The one way to start a supervised tree (handle.ts), by the choice of the
// one decision (decide.ts: config key `guardian`, $CORRAL_GUARDIAN, the
// guardian's presence, the runtime), so no caller picks an implementation
// itself. The job and terminal implementations are loaded when such a tree
// starts, not with this module: `run` must not pay for the guardian's client
// or node-pty at start-up (issue 2). Its own pipe backends are loaded with it.
import type { GuardianMode } from "../config/schema.ts";
import { chooseSupervisor, type PtyBackendPreference, type SupervisorChoice } from "./decide.ts";
import type { SupervisedProcess } from "./backend.ts";
import type { PtyBackend, PtyBackendName, PtySpawnRequest, SupervisedTree, TreeLaunch } from "./handle.ts";
import type { SpawnSpec } from "./spec.ts";
import { SpawnError } from "./spawn-error.ts";
import type { JobFacts } from "./guardian-records.ts";
import { supervise } from "./supervise.ts";
import { guardianSpawnBackend } from "./guardian/pipe-backend.ts";
import { processGroupBackend } from "./process-group/pipe-backend.ts";

/** Where a terminal session's guardian keeps its socket, and whether a new agent can take it over. */
export interface SessionPlacement {
  readonly stateDir?: string;
  /** Guardians that outlive this process and can be re-adopted (the agent's sessions, issue 11). */
  readonly adoptable?: boolean;
  /** How long an adoptable guardian waits for a new owner (config `agent.orphan-wait`). */
  readonly orphanWaitMs?: number;
}

/** The terminal backend a `by-owner` pty choice starts sessions with. */
export async function ptyBackendOf(choice: SupervisorChoice, placement: SessionPlacement = {}): Promise<PtyBackend> {
  if (choice.supervisor === "guardian") {
    const { createGuardianBackend } = await import("./guardian/pty-backend.ts");
    return createGuardianBackend(placement.stateDir, placement.adoptable === true, placement.orphanWaitMs);
  }
  if (choice.supervisor === "node-pty") return (await import("./node-pty/pty-backend.ts")).nodePtyBackend;
  throw new SpawnError("backend-unavailable", "a process group has no terminal; use the guardian");
}

/** A tree that sweeps itself (a job): the launch, and the record a new agent takes it over from. */
export interface JobTreeSpec {
  readonly launch: TreeLaunch;
  /** The job's number, written in the guardian's record for `reap`. */
  readonly jobId: number;
  /** Present: the guardian is adoptable, and a new agent rebuilds the job from these (issue 11). */
  readonly facts?: JobFacts;
}

/**
 * Starts a tree under `choice` (chooseSupervisor): a job (`on-exit`) from a
 * JobTreeSpec, a terminal session (`by-owner`) from a PtySpawnRequest.
 * Rejects with SpawnError when the program cannot start.
 */
export function startSupervised(choice: SupervisorChoice, spec: JobTreeSpec): Promise<SupervisedTree>;
export function startSupervised(choice: SupervisorChoice, spec: PtySpawnRequest, placement?: SessionPlacement): Promise<SupervisedTree>;
export async function startSupervised(choice: SupervisorChoice, spec: JobTreeSpec | PtySpawnRequest, placement: SessionPlacement = {}): Promise<SupervisedTree> {
  if (choice.sweep === "by-owner") {
    if (choice.mode !== "pty") throw new SpawnError("backend-unavailable", "only a terminal session is swept by its owner; start a pipe as a job");
    return await (await ptyBackendOf(choice, placement)).spawn(spec as PtySpawnRequest);
  }
  const job = spec as JobTreeSpec;
  if (job.launch.mode !== choice.mode) throw new SpawnError("spawn-failed", `a ${choice.mode} choice cannot start a ${job.launch.mode} tree`);
  if (choice.supervisor === "guardian" && choice.guardian !== null) {
    const { startGuardianJob } = await import("./guardian/job-tree.ts");
    return await startGuardianJob(job.launch, job.jobId, choice.guardian, job.facts);
  }
  if (choice.supervisor === "process-group") return await (await import("./process-group/job-tree.ts")).startGroupJob(job.launch);
  throw new SpawnError("backend-unavailable", `${choice.supervisor} cannot hold a ${choice.mode} job`);
}

/**
 * Starts a pipe tree whose streams the caller reads (`run`, `collect`:
 * SupervisedProcess, the stdio view of a SupervisedTree) under `choice`;
 * the program and directory are checked first (supervise.ts).
 */
export async function startPipeTree(choice: SupervisorChoice, spec: SpawnSpec): Promise<SupervisedProcess> {
  if (choice.mode !== "pipe") throw new SpawnError("backend-unavailable", "run and collect start pipe trees; a terminal goes through a session or a job");
  if (choice.supervisor === "guardian" && choice.guardian !== null) return await supervise(spec, guardianSpawnBackend(choice.guardian));
  return await supervise(spec, processGroupBackend);
}

/** Where the guardian backend puts its sockets (the agent passes its state dir), and the settings that force the choice. */
export interface BackendChoiceOptions {
  readonly stateDir?: string;
  /** The configured guardian mode (config key `guardian`); $CORRAL_GUARDIAN in `env` wins. Default "auto". */
  readonly guardian?: GuardianMode;
  /** Where $CORRAL_GUARDIAN and the guardian's location are read; default this process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Guardians that outlive this process and can be re-adopted (the agent's sessions, issue 11). */
  readonly adoptable?: boolean;
  /** How long an adoptable guardian waits for a new owner (config `agent.orphan-wait`); default: as long as its program lives. */
  readonly orphanWaitMs?: number;
}

/** The terminal backend new sessions start with (a terminal swept by its owner); rejects (SpawnError) when the one asked for is unavailable. */
export function choosePtyBackend(preference: PtyBackendPreference = "auto", options: BackendChoiceOptions = {}): Promise<PtyBackend> {
  try {
    return ptyBackendOf(chooseSupervisor({
      mode: "pty",
      sweep: "by-owner",
      prefer: preference,
      ...(options.guardian !== undefined ? { guardian: options.guardian } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    }), {
      ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
      adoptable: options.adoptable === true,
      ...(options.orphanWaitMs !== undefined ? { orphanWaitMs: options.orphanWaitMs } : {}),
    });
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Every backend that can start a session here (tests run against each). */
export async function availablePtyBackends(): Promise<PtyBackendName[]> {
  const names: PtyBackendName[] = [];
  for (const name of ["guardian", "node-pty"] as const) {
    try {
      await choosePtyBackend(name);
      names.push(name);
    } catch {
      // not available on this machine or runtime
    }
  }
  return names;
}
