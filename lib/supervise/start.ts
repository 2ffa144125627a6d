// The one way to start a supervised tree (handle.ts), by the choice of the
// one decision (decide.ts: config key `guardian`, $CORRAL_GUARDIAN, the
// guardian's presence, the runtime), through the chosen backend's one
// adapter (adapter.ts), so no caller picks an implementation itself. The
// guardian's and node-pty's adapters are loaded when such a tree starts, not
// with this module: `run` must not pay for the guardian's client or node-pty
// at start-up (issue 2). The process group's is loaded with it.
import type { GuardianMode } from "../config/schema.ts";
import { chooseSupervisor, type PtyBackendPreference, type SupervisorChoice } from "./decide.ts";
import type { JobTreeSpec, SessionPlacement, TreeAdapter } from "./adapter.ts";
import type { PtyBackend, PtyBackendName, PtySpawnRequest, SupervisedTree, SupervisionResult } from "./handle.ts";
import type { SpawnSpec } from "./spec.ts";
import { SpawnError } from "./spawn-error.ts";
import { supervise } from "./supervise.ts";
import { processGroupTree } from "./process-group/tree.ts";

export type { JobTreeSpec, SessionPlacement, SpillStopped } from "./adapter.ts";

/** The adapter of the backend `choice` names. */
async function adapterOf(choice: SupervisorChoice): Promise<TreeAdapter> {
  switch (choice.supervisor) {
    case "guardian":
      if (choice.guardian === null) throw new SpawnError("backend-unavailable", "the guardian was chosen without a binary");
      return (await import("./guardian/tree.ts")).guardianTree(choice.guardian);
    case "node-pty":
      return (await import("./node-pty/tree.ts")).nodePtyTree;
    case "process-group":
      return processGroupTree;
  }
}

/** The terminal backend a `by-owner` pty choice starts sessions with: its adapter's startSession at this placement. */
export async function ptyBackendOf(choice: SupervisorChoice, placement: SessionPlacement = {}): Promise<PtyBackend> {
  if (choice.supervisor === "process-group") throw new SpawnError("backend-unavailable", "a process group has no terminal; use the guardian");
  const startSession = (await adapterOf(choice)).startSession;
  if (startSession === undefined) throw new SpawnError("backend-unavailable", `${choice.supervisor} cannot hold a terminal session`);
  return { name: choice.supervisor, spawn: (request) => startSession(request, placement) };
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
  const adapter = await adapterOf(choice);
  // The process group has no terminal: a pty job needs the guardian's stop events.
  const startJob = choice.mode === "pty" && choice.supervisor !== "guardian" ? undefined : adapter.startJob;
  if (startJob === undefined) throw new SpawnError("backend-unavailable", `${choice.supervisor} cannot hold a ${choice.mode} job`);
  return await startJob(job);
}

/**
 * Starts a pipe tree whose streams the caller reads (`run`, `collect`: the
 * handle with stdin, stdout, stderr and `exited`) under `choice`; the
 * program and directory are checked first (supervise.ts).
 */
export async function startPipeTree(choice: SupervisorChoice, spec: SpawnSpec): Promise<SupervisedTree> {
  if (choice.mode !== "pipe") throw new SpawnError("backend-unavailable", "run and collect start pipe trees; a terminal goes through a session or a job");
  return await supervise(spec, await adapterOf(choice));
}

/** A pipe tree's end (its `exited`); rejects for a tree that says `exit` and `done` instead (a job, a session). */
export function endOf(tree: SupervisedTree): Promise<SupervisionResult> {
  return tree.exited ?? Promise.reject(new Error(`this ${tree.backend} tree is not a pipe tree: it says exit and done instead`));
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
