// The guardian backend's one adapter (adapter.ts): every tree it holds, in
// every mode, starts here under its own native/corral-guardian (census,
// subreaper, pidfd-pinned pids, exact exit and stop events) and comes back
// as the one handle. What each mode's handle does with the guardian's
// events is beside it by concern: pipe-tree.ts (run and collect),
// job-tree.ts (a job that sweeps itself), session-tree.ts (a terminal
// session); re-adopting a tree a previous agent left is here too. start.ts
// loads this module only when a tree goes under the guardian: the client
// pulls in node:net, which `run` under the process group never needs
// (start-up, issue 2).
import process from "node:process";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { JobTreeSpec, SessionPlacement, SpillStopped, TreeAdapter } from "../adapter.ts";
import type { GuardianLink, PtySpawnRequest, SupervisedTree, TreeLaunch } from "../handle.ts";
import type { ResolvedSpawn } from "../spec.ts";
import { SpawnError } from "../spawn-error.ts";
import { monotonicMs } from "../monotonic-ms.ts";
import { removeRecord, writeRecord } from "../guardian-records.ts";
import { identityOf } from "../../proc/identity.ts";
import { socketBaseDir } from "../../runtime/socket-base-dir.ts";
import { type Guardian, GuardianError } from "./client.ts";
import { spawnGuardian } from "./launch.ts";
import type { StartedEvent } from "./protocol.ts";
import { pipeLaunch } from "./guardian-stdio.ts";
import { GuardianPipeTree } from "./pipe-tree.ts";
import { GuardianJob, JOB_LINGER_MS, watchJobSpill, wireJobEvents } from "./job-tree.ts";
import { GuardianSession } from "./session-tree.ts";
import { locateJobShim } from "./job-shim.ts";

/** The guardian as an adapter: each tree under its own guardian, the binary at `binary`. */
export function guardianTree(binary: string): TreeAdapter {
  return {
    name: "guardian",
    startPipe: (resolved) => startPipe(resolved, binary),
    startJob: (job) => startJob(job, binary),
    startSession: (request, placement) => startSession(request, placement, binary),
  };
}

async function startPipe(resolved: ResolvedSpawn, binary: string): Promise<SupervisedTree> {
  const { spec } = resolved;
  const startedAt = monotonicMs();
  // No socket: the guardian speaks over the socket pair it inherits (nothing
  // reconnects to a run's guardian), so nothing is made in /tmp and a corral
  // killed with SIGKILL leaves nothing behind but the connection's end,
  // which the guardian reads as its owner gone.
  const guardian = spawnGuardian(pipeLaunch(resolved), { env: spec.env, binary });
  const tree = new GuardianPipeTree(guardian, resolved, startedAt);
  try {
    const started = await guardian.started;
    tree.pid = started.pid;
  } catch (error) {
    guardian.detach();
    await guardian.processExit;
    const message = error instanceof Error ? error.message : String(error);
    const failure = /no such file/i.test(message) ? "not-found" : /permission|exec format/i.test(message) ? "not-executable" : "spawn-failed";
    throw new SpawnError(failure, `${spec.argv[0]}: ${message}`);
  }
  tree.supervise();
  return tree;
}

/**
 * A job under a new guardian. With `facts`, the guardian is adoptable: it
 * outlives this agent and a new one takes the job over (issue 11); it is
 * recorded in the state dir so that `reap` finds it if this agent dies.
 */
async function startJob({ launch, jobId, facts, onSpillStopped }: JobTreeSpec, binary: string): Promise<SupervisedTree> {
  const shim = launch.mode === "pty" ? locateJobShim(binary) : null;
  const startedAt = performance.now();
  const guardian = spawnGuardian({
    argv: shim === null ? launch.argv : [shim, ...launch.argv],
    mode: launch.mode,
    cwd: launch.cwd,
    stdin: launch.mode === "pipe" ? "null" : "pipe",
    stdout: "pipe",
    stderr: launch.mode === "pipe" ? "stdout" : "pipe",
    rows: launch.rows,
    cols: launch.cols,
    graceMs: launch.graceMs,
    lingerMs: JOB_LINGER_MS,
    ...(facts !== undefined ? { adoptable: true } : {}),
    ...(facts !== undefined && launch.orphanWaitMs !== undefined ? { orphanWaitMs: launch.orphanWaitMs } : {}),
    ...(facts?.spillByGuardian === true && facts.spill !== null ? { jobSpill: facts.spill } : {}),
  }, { stateDir: launch.stateDir, env: launch.env, binary });
  const job = new GuardianJob(guardian, launch.graceMs);
  if (onSpillStopped !== undefined && facts?.spillByGuardian === true && facts.spill !== null) watchJobSpill(guardian, onSpillStopped, facts.spill, launch.stateDir);
  wireJobEvents(job, guardian, launch, startedAt); // before any await: no event can slip by
  let child;
  try {
    child = await guardian.started;
  } catch (error) {
    await guardian.shutdown(0).catch(() => {});
    guardian.detach();
    await guardian.processExit;
    if (error instanceof GuardianError && error.code === "spawn-failed") {
      throw new SpawnError("spawn-failed", `${launch.argv[0]}: ${error.message}`);
    }
    throw new SpawnError("spawn-failed", `cannot start a guardian for ${launch.argv[0]}: ${(error as Error).message}`);
  }
  job.pid = child.pid;
  const guardianId = identityOf(guardian.pid);
  const owner = identityOf(process.pid);
  if (guardianId !== undefined && owner !== undefined) {
    writeRecord(launch.stateDir, {
      guardian: guardianId,
      owner,
      child,
      socket: guardian.reconnectPath,
      token: guardian.token,
      argv: launch.argv,
      job: jobId,
      recordedAt: Date.now(),
      ...(facts !== undefined ? { adoptable: true, jobFacts: facts } : {}),
    });
  }
  // The record goes once the job's end is known (wireJobEvents' finish), never merely because the
  // guardian is gone: an agent SIGKILLed while it ends a lost guardian's tree would leave the
  // next one neither the record nor the end, and the job would vanish unreported.
  void guardian.processExit?.then(() => {
    if (job.events.swept !== undefined) removeRecord(launch.stateDir, guardian.pid);
  });
  return job;
}

/**
 * A terminal session; its guardian's socket goes in the placement's state
 * dir (0700, ours). Adoptable: the guardian outlives its owner and waits for
 * a new one (the agent's sessions), for `orphanWaitMs` when given, else as
 * long as its program lives.
 */
async function startSession(request: PtySpawnRequest, placement: SessionPlacement, binary: string): Promise<SupervisedTree> {
  const adoptable = placement.adoptable === true;
  const guardian = spawnGuardian(
    {
      argv: request.argv,
      mode: "pty",
      cwd: request.cwd,
      rows: request.rows,
      cols: request.cols,
      ...(adoptable ? { adoptable } : {}),
      ...(adoptable && placement.orphanWaitMs !== undefined ? { orphanWaitMs: placement.orphanWaitMs } : {}),
    },
    { stateDir: placement.stateDir ?? defaultStateDir(), env: request.env, binary },
  );
  const handle = new GuardianSession(guardian);
  try {
    const child = await guardian.started;
    handle.pid = child.pid;
    if (adoptable) handle.link = { guardianPid: guardian.pid, socket: guardian.reconnectPath, token: guardian.token, child };
    return handle;
  } catch (error) {
    guardian.detach();
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof GuardianError && error.code === "spawn-failed") {
      throw new SpawnError(/No such file/i.test(message) ? "not-found" : "not-executable", `cannot start ${request.argv[0]}: ${message}`);
    }
    throw new SpawnError("spawn-failed", `the guardian could not start ${request.argv[0]}: ${message}`);
  }
}

let privateStateDir: string | undefined;

// A socket directory nobody else can enter, for callers that have no state
// dir (the agent passes its own); removed when this process exits.
function defaultStateDir(): string {
  if (privateStateDir === undefined) {
    const dir = mkdtempSync(path.join(socketBaseDir(), "corral-pty-"));
    privateStateDir = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return privateStateDir;
}

/**
 * A session's handle over a guardian a previous agent started (already
 * connected with its token): created before the welcome is awaited, so no
 * live output after the backlog is missed (it is held until an output listener).
 */
export function adoptSession(guardian: Guardian, link: GuardianLink): SupervisedTree {
  const handle = new GuardianSession(guardian);
  handle.pid = link.child.pid;
  handle.link = link;
  return handle;
}

/**
 * Takes over a job whose guardian a previous agent started (already
 * connected, not yet read from): the process side of a re-adopted job.
 * Output after the guardian's backlog is held until the Job listens.
 */
export function adoptJob(
  guardian: Guardian, child: StartedEvent, launch: Pick<TreeLaunch, "mode" | "graceMs" | "stateDir">, startedAt: number,
  spill?: { readonly path: string; readonly onStopped: SpillStopped },
): SupervisedTree {
  const job = new GuardianJob(guardian, launch.graceMs);
  if (spill !== undefined) watchJobSpill(guardian, spill.onStopped, spill.path, launch.stateDir);
  job.pid = child.pid;
  wireJobEvents(job, guardian, launch, performance.now() - (Date.now() - startedAt));
  return job;
}
