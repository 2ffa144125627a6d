// The one way to start a supervised tree (handle.ts): the one backend
// decision (backend-choice.ts: config key `guardian`, $CORRAL_GUARDIAN, the
// guardian's presence, the runtime) picks the supervisor for a pipe or a
// terminal, so no caller picks an implementation itself. What each mode does
// without a guardian is decided here too: a pipe falls back to the process
// group, a terminal session to node-pty (not under Bun), and a terminal job
// (`run --tty`) is refused, as it needs the guardian's stop events.
// The job and terminal implementations are loaded when such a tree starts,
// not with this module: `run` must not pay for the guardian's client or
// node-pty at start-up (issue 2). Its own pipe backends are already loaded
// by backend-choice.ts.
import process from "node:process";
import type { GuardianMode } from "../config/schema.ts";
import { locateGuardian, missingGuardian } from "./guardian/binary.ts";
import { type BackendDecision, decideBackend, nodePtyWorksHere } from "./backend-choice.ts";
import type { SupervisedProcess } from "./backend.ts";
import type { PtyBackend, PtySpawnRequest, SupervisedTree, SupervisorName, TreeLaunch, TreeMode } from "./handle.ts";
import type { SpawnSpec } from "./spec.ts";
import { SpawnError } from "./spawn-error.ts";
import type { JobFacts } from "./guardian-records.ts";
import { supervise } from "./supervise.ts";
import { guardianSpawnBackend } from "./guardian/pipe-backend.ts";
import { processGroupBackend } from "./process-group/pipe-backend.ts";

/**
 * Who sweeps what the program leaves running. `on-exit`: the tree does, and
 * then says `done` (jobs, like `run`). `by-owner`: the owner calls terminate
 * after the exit (a terminal session, whose screen stays readable meanwhile).
 */
export type TreeSweep = "on-exit" | "by-owner";

/** What the decision needs: the mode, the sweep, and the settings that force it. */
export interface SupervisorQuestion {
  readonly mode: TreeMode;
  readonly sweep: TreeSweep;
  /** A supervisor by name (tests, probe); default: the one decision. */
  readonly prefer?: "auto" | SupervisorName;
  /** The configured guardian mode (config key `guardian`); $CORRAL_GUARDIAN in `env` wins. Default "auto". */
  readonly guardian?: GuardianMode;
  /** Where $CORRAL_GUARDIAN and the guardian's location are read; default this process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The supervisor a tree gets, and the guardian binary when it is the guardian. */
export interface SupervisorChoice {
  readonly mode: TreeMode;
  readonly sweep: TreeSweep;
  readonly supervisor: SupervisorName;
  /** The guardian binary (supervisor "guardian"), else null. */
  readonly guardian: string | null;
  /** One line for --explain: what was chosen and why. */
  readonly why: string;
}

/** Decides; throws SpawnError("backend-unavailable") with what would do when no supervisor can hold this tree here. */
export function chooseSupervisor(question: SupervisorQuestion): SupervisorChoice {
  const { mode, sweep } = question;
  const env = question.env ?? process.env;
  const choice = (supervisor: SupervisorName, guardian: string | null, why: string): SupervisorChoice => ({ mode, sweep, supervisor, guardian, why });
  switch (question.prefer ?? "auto") {
    case "guardian": {
      const found = locateGuardian(env);
      if (!found.built) throw new SpawnError("backend-unavailable", `${missingGuardian(found)}; or use node-pty`);
      return choice("guardian", found.path, `guardian ${found.path} (asked for by name)`);
    }
    case "node-pty":
      if (mode !== "pty" || sweep !== "by-owner") throw new SpawnError("backend-unavailable", "node-pty holds terminal sessions only");
      if (!nodePtyWorksHere()) throw new SpawnError("backend-unavailable", "node-pty does not work under Bun; use the guardian");
      return choice("node-pty", null, "node-pty (asked for by name)");
    case "process-group":
      if (mode !== "pipe") throw new SpawnError("backend-unavailable", "a process group has no terminal; use the guardian");
      return choice("process-group", null, "process group (asked for by name)");
    case "auto":
      break;
  }
  let decision: BackendDecision;
  try {
    decision = decideBackend(question.guardian ?? "auto", env);
  } catch (error) {
    throw new SpawnError("backend-unavailable", (error as Error).message);
  }
  if (decision.guardian !== null) return choice("guardian", decision.guardian, decision.why);
  const missing = decision.missing ?? decision.why;
  if (mode === "pipe") return choice("process-group", null, `process group (${decision.why})`);
  if (sweep === "on-exit") throw new SpawnError("backend-unavailable", `--tty jobs need the guardian, and ${missing}`);
  if (!nodePtyWorksHere()) throw new SpawnError("backend-unavailable", `under Bun, terminal sessions need the guardian: ${missing}`);
  return choice("node-pty", null, `node-pty (${decision.why})`);
}

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
