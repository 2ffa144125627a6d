// Issue 2 benchmark: what `corral run -- true` costs over the runtime doing
// the same spawn in a bare script (the floor no CLI on that runtime can go
// under). Aim: Node within 25 ms of its floor; Bun and Deno reported.
// CORRAL_BENCH_RUNS sets N (default 20); the pairs run interleaved so a busy
// moment on the machine hurts both alike.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const RUNS = Number(process.env.CORRAL_BENCH_RUNS ?? 20);
const bin = (name: string) => path.join(repo, "node_modules", ".bin", name);
const main = path.join(repo, "cli", "main.ts");

interface Pair {
  readonly runtime: string;
  readonly corral: readonly string[];
  readonly floor: readonly string[];
  readonly env?: Record<string, string>;
}

const pairs: Pair[] = [
  {
    runtime: "node",
    corral: [process.execPath, path.join(repo, "dist", "corral.mjs"), "run", "--", "true"],
    floor: [process.execPath, "-e", "require('child_process').spawnSync('true')"],
  },
  {
    // The pure JavaScript backend: what run costs without the guardian's exec.
    runtime: "node, CORRAL_GUARDIAN=never",
    corral: [process.execPath, path.join(repo, "dist", "corral.mjs"), "run", "--", "true"],
    floor: [process.execPath, "-e", "require('child_process').spawnSync('true')"],
    env: { CORRAL_GUARDIAN: "never" },
  },
  {
    runtime: "bun",
    corral: [bin("bun"), main, "run", "--", "true"],
    floor: [bin("bun"), "-e", "require('child_process').spawnSync('true')"],
  },
  {
    runtime: "deno",
    corral: [bin("deno"), "run", "--allow-all", "--quiet", main, "run", "--", "true"],
    floor: [bin("deno"), "eval", "--quiet", "import { spawnSync } from 'node:child_process'; spawnSync('true')"],
  },
];

/** Wall-clock ms of one run; throws when the command fails (a broken bench is not a fast one). */
function once(argv: readonly string[], env: Record<string, string> = {}): number {
  const started = performance.now();
  const r = spawnSync(argv[0] as string, argv.slice(1), {
    cwd: repo,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} exited ${r.status ?? r.signal}: ${String(r.stderr).trim()}`);
  return ms;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
process.stdout.write(`run-startup: N=${RUNS} each (load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})\n`);
let failures = 0;
for (const pair of pairs) {
  try {
    // Untimed warm-up: fills the page cache and Deno's transpile cache.
    once(pair.corral, pair.env);
    once(pair.floor);
    const corral: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      corral.push(once(pair.corral, pair.env));
      floor.push(once(pair.floor));
    }
    corral.sort((a, b) => a - b);
    floor.sort((a, b) => a - b);
    const cMed = quantile(corral, 0.5);
    const fMed = quantile(floor, 0.5);
    process.stdout.write(
      `  ${pair.runtime}\n` +
        `    corral run -- true  median ${fmt(cMed)}  p90 ${fmt(quantile(corral, 0.9))}\n` +
        `    bare spawn floor    median ${fmt(fMed)}  p90 ${fmt(quantile(floor, 0.9))}\n` +
        `    over the floor: ${fmt(cMed - fMed)} (median), ratio ${(cMed / fMed).toFixed(2)}x` +
        (pair.runtime.startsWith("node") ? ` (aim <= 25 ms)` : "") + "\n",
    );
  } catch (error) {
    failures++;
    process.stdout.write(`  ${pair.runtime}: ${(error as Error).message}\n`);
  }
}
process.exitCode = failures === 0 ? 0 : 1;
