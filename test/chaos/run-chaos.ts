// The chaos run: rounds (round.ts) for a given time, under one seed, in a
// private state dir, with every process of the run marked so that what is
// left can be found. Prints the seed first, each fault as it lands, each
// violation with its round and invariant, and the counts at the end.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corralRun, type RunEnv } from "./cli.ts";
import { Random } from "./random.ts";
import { runRound } from "./round.ts";
import { mountSmallDisk, unmountSmallDisk } from "./tmpfs.ts";
import { processesWithEnv } from "../support/processes.ts";

export interface ChaosOptions {
  readonly seconds: number;
  readonly seed: number;
  readonly log: (line: string) => void;
}

export interface ChaosReport {
  readonly seed: number;
  readonly rounds: number;
  readonly faults: number;
  readonly checked: number;
  readonly violations: readonly string[];
  readonly skipped: readonly string[];
  readonly seconds: number;
}

/** A round takes about this long; no round starts that would end past the time given. */
const ROUND_ESTIMATE_MS = 15_000;

export const CHAOS_MARKER = "CORRALCHAOS_RUN";

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const { seed, log } = options;
  const started = Date.now();
  log(`chaos: seed ${seed} (replay: npm run chaos -- --seconds ${options.seconds} --seed ${seed})`);
  const root = mkdtempSync(path.join(os.tmpdir(), "corral-chaos-"));
  const stateDir = path.join(root, "state");
  const spillDir = path.join(root, "spills");
  mkdirSync(stateDir, { mode: 0o700 });
  mkdirSync(spillDir);
  const env: RunEnv = { stateDir, marker: CHAOS_MARKER, markerValue: `${process.pid}-${seed}-${started}`, cwd: root };
  const rng = new Random(seed);
  const skipped: string[] = [];
  const disk = mountSmallDisk(root);
  if ("skipped" in disk) skipped.push(`full-disk fault: ${disk.skipped}`);
  const vim = spawnSync("vim", ["--version"], { stdio: "ignore" }).status === 0;
  if (!vim) skipped.push("vim sessions: vim is not installed");
  for (const s of skipped) log(`chaos: SKIP ${s}`);
  const violations: string[] = [];
  let rounds = 0;
  let faults = 0;
  let checked = 0;
  const deadline = started + options.seconds * 1000;
  try {
    while (rounds === 0 || Date.now() + ROUND_ESTIMATE_MS <= deadline) {
      rounds++;
      const result = await runRound({ env, rng, round: rounds, spillDir, diskDir: "dir" in disk ? disk.dir : null, vim, log });
      faults += result.faults;
      checked += result.verdicts.checked;
      for (const v of result.verdicts.violations) {
        violations.push(`round ${rounds}: ${v}`);
        log(`chaos: VIOLATION seed ${seed} round ${rounds}: ${v}`);
      }
      log(`chaos: round ${rounds} done: ${result.faults} fault(s), ${result.verdicts.checked} check(s), ${result.verdicts.violations.length} violation(s)`);
    }
  } finally {
    await corralRun(env, ["agent", "stop", "--force"], 60_000);
    await corralRun(env, ["reap", "--all", "--grace", "1s"], 120_000);
    const left = processesWithEnv(CHAOS_MARKER, env.markerValue);
    for (const p of left) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    if (left.length > 0) violations.push(`end: left running after agent stop --force and reap --all: ${left.map((p) => `${p.pid} ${p.cmdline}`).join("; ")}`);
    unmountSmallDisk(disk);
    // CORRAL_CHAOS_KEEP=1 keeps the state dir (the agent's log) and spills for a look after a violation.
    if (violations.length > 0 && process.env.CORRAL_CHAOS_KEEP === "1") log(`chaos: kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  log(`chaos: seed ${seed}: ${rounds} rounds, ${faults} faults injected, ${checked} invariants checked, ${violations.length} violations (${seconds} s)`);
  return { seed, rounds, faults, checked, violations, skipped, seconds };
}
