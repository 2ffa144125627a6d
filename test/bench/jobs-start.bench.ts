// What a job costs to start and to see finish: `run --bg -- true` followed by
// `collect --job --follow` (the job's exit status back in the shell), against
// the baseline `run -- true` (the client supervising the child itself), with a
// warm agent, same runtime, same run. Prints medians and the ratio.
// Run: npm run bench -- jobs-start   (CORRAL_BENCH_N=20 by default)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corralCommand } from "../support/corral-cli.ts";

const N = Number(process.env.CORRAL_BENCH_N ?? 20);
const dir = mkdtempSync(path.join(os.tmpdir(), "corral-bench-jobstart-"));
const env = { ...process.env, CORRAL_STATE_DIR: path.join(dir, "state"), CORRAL_SOCKET: "", CORRAL_AGENT_IDLE: "5m" };
const [file, ...prefix] = corralCommand() as [string, ...string[]];

function corral(args: string[]): { ms: number; stdout: string; status: number | null } {
  const t = performance.now();
  const r = spawnSync(file, [...prefix, ...args], { env, encoding: "utf8" });
  return { ms: performance.now() - t, stdout: r.stdout, status: r.status };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

corral(["agent", "start"]);
const baseline: number[] = [];
const job: number[] = [];
for (let i = 0; i < N; i++) {
  baseline.push(corral(["run", "--", "true"]).ms);
  const t = performance.now();
  const id = corral(["run", "--bg", "--", "true"]).stdout.trim();
  const followed = corral(["collect", "--job", id, "--follow"]);
  if (followed.status !== 0) throw new Error(`collect --job ${id} --follow exited ${followed.status}`);
  job.push(performance.now() - t);
  if (i % 10 === 9) corral(["reap"]);
}
corral(["reap", "--all"]);
corral(["agent", "stop", "--force"]);
rmSync(dir, { recursive: true, force: true });
const b = median(baseline);
const j = median(job);
console.log(`run --bg -- true + collect --job --follow (two CLI calls, warm agent): median ${j.toFixed(0)} ms over ${N}`);
console.log(`baseline run -- true (one CLI call, no agent): median ${b.toFixed(0)} ms; ratio ${(j / b).toFixed(2)}x`);
