// What a config file costs at start-up: `corral run -- true` with no config
// file (the yaml parser is never loaded) against the same with a typical
// config file (parser loaded, file validated). Runs alternate so machine
// load colours both sides alike; medians are compared.
// Usage: npm run bench -- config-startup   (CORRAL_BENCH_RUNS=N to change the 25 runs)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corralCommand } from "../support/corral-cli.ts";

const runs = Number(process.env.CORRAL_BENCH_RUNS ?? 25);
const dir = mkdtempSync(path.join(os.tmpdir(), "corral-bench-config-"));
const file = path.join(dir, "config.yaml");
writeFileSync(file, [
  "grace: 2s",
  "max-bytes: 4MiB",
  "head-bytes: 16k",
  "env:",
  "  scrub-extra: [\"MY_COMPANY_*\", \"*_DSN\"]",
  "  keep-extra: [GITHUB_TOKEN]",
  "terminal: { cols: 120, rows: 40 }",
  "agent:",
  "  idle-timeout: 10m",
  "",
].join("\n"));

const [bin, ...prefix] = corralCommand() as [string, ...string[]];
function once(env: Record<string, string | undefined>): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(bin, [...prefix, "run", "--", "true"], { env: { ...process.env, ...env }, stdio: "ignore" });
  if (result.status !== 0) throw new Error(`corral run -- true exited ${String(result.status)}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const without: number[] = [];
const withFile: number[] = [];
try {
  once({ CORRAL_CONFIG: file }); // warm the file cache
  for (let i = 0; i < runs; i++) {
    without.push(once({ CORRAL_CONFIG: undefined, XDG_CONFIG_HOME: path.join(dir, "none") }));
    withFile.push(once({ CORRAL_CONFIG: file }));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const a = median(without);
const b = median(withFile);
process.stdout.write(`corral run -- true, no config file:   median ${a.toFixed(1)} ms (${runs} runs)\n`);
process.stdout.write(`corral run -- true, with config file: median ${b.toFixed(1)} ms\n`);
process.stdout.write(`ratio with/without: ${(b / a).toFixed(2)}x (+${(b - a).toFixed(1)} ms for the file)\n`);
