// `collect --live --heartbeat 1s`: no heartbeat while output keeps flowing,
// one after each quiet second. A claim about time, so measured here rather
// than asserted in a test: the same 4-second step run flowing (a line every
// 50 ms) and quiet, alternately, and the heartbeats counted in each.
// Usage: npm run bench -- heartbeat-live   (CORRAL_BENCH_RUNS=N to change the 3 runs)
import { spawnSync } from "node:child_process";
import { corralCommand } from "../support/corral-cli.ts";

const runs = Number(process.env.CORRAL_BENCH_RUNS ?? 3);
const [bin, ...prefix] = corralCommand() as [string, ...string[]];
const env = { ...process.env, CI: "", GITHUB_ACTIONS: "", GITLAB_CI: "" };
const steps = {
  flowing: `end=$(($(date +%s) + 4)); while [ "$(date +%s)" -lt "$end" ]; do echo ${"tick-".repeat(20)}; sleep 0.05; done`,
  quiet: "sleep 4",
};

function beats(script: string): number {
  const r = spawnSync(bin, [...prefix, "collect", "--live", "--heartbeat", "1s", "--head-bytes", "1k", "--max-bytes", "1k", "--", "sh", "-c", script], { env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`collect exited ${String(r.status)}: ${r.stderr}`);
  return r.stderr.split("\n").filter((l) => l.startsWith("corral: heartbeat: ")).length;
}

const counts = { flowing: [] as number[], quiet: [] as number[] };
for (let i = 0; i < runs; i++) {
  counts.flowing.push(beats(steps.flowing));
  counts.quiet.push(beats(steps.quiet));
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
process.stdout.write(`4 s step, output every 50 ms: ${counts.flowing.join(", ")} heartbeats (want 0)\n`);
process.stdout.write(`4 s step, quiet:              ${counts.quiet.join(", ")} heartbeats (baseline, about 3)\n`);
process.stdout.write(`heartbeats while flowing per quiet-step heartbeat: ${(sum(counts.flowing) / Math.max(1, sum(counts.quiet))).toFixed(2)}\n`);
