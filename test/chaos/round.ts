// One chaos round: start the workload, inject the round's faults at their
// seeded moments while it runs, let everything end, then check every
// invariant and clean up with `reap --all`.
import { rmSync } from "node:fs";
import { corralRun, jsonOf, type Ran, type RunEnv } from "./cli.ts";
import { FAULTS, inject, type FaultName } from "./faults.ts";
import { checkClient, checkJobExit, checkSessionExit, checkSpill, type ExitFacts, type JobRow, Verdicts } from "./invariants.ts";
import type { Random } from "./random.ts";
import { emptyDisk, fillDisk } from "./tmpfs.ts";
import { processesWithEnv } from "../support/processes.ts";
import { endSession, type Item, type Session, type SpillJob, startCollect, startSession, startSpillJob, startWait } from "./workload.ts";
import { agentPidOf, probeScreen, type ScreenProbe } from "./probe.ts";

/** A screen must be answered within this (a CLI start on a loaded machine, a re-adoption after an agent's death included). */
export const SCREEN_BOUND_MS = 20_000;
/** The agent's resident memory once a round's work is reaped. */
export const MEMORY_BUDGET_BYTES = 400 * 1024 * 1024;

export interface RoundSetup {
  readonly env: RunEnv;
  readonly rng: Random;
  readonly round: number;
  readonly spillDir: string;
  /** The small tmpfs, when one could be mounted. */
  readonly diskDir: string | null;
  readonly vim: boolean;
  readonly log: (line: string) => void;
}

export interface RoundResult {
  readonly faults: number;
  readonly verdicts: Verdicts;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function jobRows(env: RunEnv): Promise<JobRow[]> {
  return jsonOf<{ jobs: JobRow[] }>(await corralRun(env, ["jobs", "--json"], 60_000))?.jobs ?? [];
}

async function waitJobsDone(env: RunEnv, names: readonly string[], ms: number): Promise<JobRow[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows = await jobRows(env);
    const open = names.filter((n) => rows.find((r) => r.name === n)?.state !== "done");
    if (open.length === 0 || Date.now() > deadline) return rows;
    await pause(300);
  }
}

export async function runRound(setup: RoundSetup): Promise<RoundResult> {
  const { env, rng, round, log } = setup;
  const v = new Verdicts();
  const at = (name: string) => `r${round}${name}`;
  // The faults and their moments, drawn first: the whole round follows from the seed.
  const plan = Array.from({ length: rng.int(2, 4) }, () => ({ fault: rng.pick(FAULTS) as FaultName, atMs: rng.int(0, 2500) })).sort((a, b) => a.atMs - b.atMs);
  const fullDisk = setup.diskDir !== null && rng.chance(0.5);
  if (fullDisk) fillDisk(setup.diskDir!, 128 * 1024);

  const probe = await corralRun(env, ["pty", "open", "--name", at("probe"), "--", "bash", "--norc", "--noprofile"], 60_000);
  v.check(probe.code === 0, "session opens", () => `probe: ${probe.stderr.trim()}`);
  const [jobs, sessions] = await Promise.all([
    Promise.all([
      startSpillJob(env, rng, at("j1"), setup.spillDir, false),
      startSpillJob(env, rng, at("j2"), setup.spillDir, false),
      ...(fullDisk ? [startSpillJob(env, rng, at("full"), setup.diskDir!, true)] : []),
    ]),
    Promise.all([
      startSession(env, at("bash"), "bash"),
      startSession(env, at("flood"), "flood"),
      ...(setup.vim ? [startSession(env, at("vim"), "vim")] : []),
    ]),
  ]);
  for (const item of [...jobs, ...sessions]) v.check(item.started, "starts", () => `${item.name} did not start`);
  const clients = [startCollect(env, at("collect-timeout"), true), startCollect(env, at("collect-status"), false), startWait(env, jobs[0]!)];
  const items: Item[] = [...jobs, ...sessions, ...clients];

  // The screen is asked for throughout, while the faults land.
  const probes: ScreenProbe[] = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      probes.push(await probeScreen(env, at("probe")));
      await pause(500);
    }
  })();

  let faults = 0;
  const t0 = Date.now();
  for (const step of plan) {
    await pause(Math.max(0, t0 + step.atMs - Date.now()));
    const did = await inject(step.fault, env, rng, items);
    if (did !== null) {
      faults++;
      log(`round ${round}: ${did}`);
    }
  }
  if (fullDisk) faults++;

  const rows = await waitJobsDone(env, jobs.filter((j) => j.started).map((j) => j.name), 90_000);
  const closed = await Promise.all(sessions.filter((s) => s.started).map(async (s) => [s, await endSession(env, s)] as [Session, Ran]));
  const ran = await Promise.all(clients.map((c) => c.client.done));
  probing = false;
  await prober;

  const final = await jobRows(env);
  const lostNotes = (await corralRun(env, ["jobs"], 60_000)).stderr + (await corralRun(env, ["pty", "list"], 60_000)).stderr;
  for (const job of jobs.filter((j) => j.started)) {
    const row = final.find((r) => r.name === job.name) ?? rows.find((r) => r.name === job.name);
    checkSpill(v, job as SpillJob, row);
    checkJobExit(v, job as SpillJob, row, lostNotes);
  }
  for (const [s, r] of closed) checkSessionExit(v, s, r, jsonOf<{ session?: { exit: ExitFacts | null } }>(r)?.session?.exit ?? null, lostNotes);
  clients.forEach((c, i) => checkClient(v, c, ran[i]!, c.job === undefined ? undefined : final.find((r) => r.name === c.job!.name), lostNotes));
  for (const p of probes) v.check(p.ok && p.ms <= SCREEN_BOUND_MS, "screen within bound", () => `pty screen took ${p.ms} ms (bound ${SCREEN_BOUND_MS}): ${p.error}`);

  const reap = await corralRun(env, ["reap", "--all", "--grace", "1s"], 120_000);
  // Once the round's work is reaped, the agent's memory is back under its budget.
  const status = jsonOf<{ running: boolean; memory?: { rss: number } }>(await corralRun(env, ["agent", "status", "--json"], 60_000));
  v.check(reap.code === 0, "reap confirmed", () => `reap --all exit ${reap.code}: ${reap.stdout.trim()} ${reap.stderr.trim()}`);
  const agent = agentPidOf(env);
  const deadline = Date.now() + 30_000;
  let left = processesWithEnv(env.marker, env.markerValue).filter((p) => p.pid !== agent);
  while (left.length > 0 && Date.now() < deadline) {
    await pause(200);
    left = processesWithEnv(env.marker, env.markerValue).filter((p) => p.pid !== agent);
  }
  v.check(left.length === 0, "nothing left after reap --all", () => left.map((p) => `${p.pid} ${p.cmdline}`).join("; "));
  if (status?.running === true && status.memory !== undefined) {
    const rss = status.memory.rss;
    v.check(rss <= MEMORY_BUDGET_BYTES, "memory under budget", () => `agent RSS ${Math.round(rss / 1048576)} MiB > ${MEMORY_BUDGET_BYTES / 1048576} MiB`);
  }
  if (setup.diskDir !== null) emptyDisk(setup.diskDir);
  for (const job of jobs) rmSync(job.spill, { force: true });
  return { faults, verdicts: v };
}
