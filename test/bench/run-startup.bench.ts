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
  /** Row labels when the pair is not `run -- true` vs a bare spawn. */
  readonly labels?: readonly [string, string];
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
    // Diagnostic: the CLI's load alone (no spawn on either side), to tell
    // module-graph cost from the cost of run's own work.
    runtime: "node, corral --version vs node -e 0",
    corral: [process.execPath, path.join(repo, "dist", "corral.mjs"), "--version"],
    floor: [process.execPath, "-e", "0"],
    labels: ["corral --version", "node -e 0"],
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

interface Sample {
  readonly wallMs: number;
  /** CPU time (user + sys) of the whole process tree: steadier than wall time on a busy machine. */
  readonly cpuMs: number | undefined;
}

// python3 times the runs when it is there (CI installs it): getrusage of the
// waited-for children gives each run's CPU time, which Node's spawn cannot.
const TIMER_PY = `
import json, os, resource, subprocess, sys, time
runs, cmds = json.loads(sys.argv[1])
out = [[] for _ in cmds]
for i in range(runs + 1):
    for j, (argv, env) in enumerate(cmds):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run(argv, env={**os.environ, **env}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = (time.perf_counter() - t) * 1000
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0:
            sys.exit(" ".join(argv) + " exited " + str(r.returncode) + ": " + r.stderr.decode(errors="replace").strip())
        cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
        if i > 0: out[j].append([wall, cpu])  # run 0 warms the page cache and Deno's transpile cache
print(json.dumps(out))
`;

/** N interleaved samples of each command (one untimed warm-up first); throws when one fails. */
function sample(cmds: readonly { argv: readonly string[]; env: Record<string, string> }[]): Sample[][] {
  const py = spawnSync("python3", ["-c", TIMER_PY, JSON.stringify([RUNS, cmds.map((c) => [c.argv, c.env])])], {
    cwd: repo,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 24,
  });
  if (py.error === undefined && py.status === 0) {
    return (JSON.parse(String(py.stdout)) as [number, number][][]).map((runs) =>
      runs.map(([wallMs, cpuMs]) => ({ wallMs, cpuMs }))
    );
  }
  if (py.error === undefined) throw new Error(String(py.stderr).trim());
  // No python3: wall time only.
  const out: Sample[][] = cmds.map(() => []);
  for (let i = 0; i <= RUNS; i++) {
    cmds.forEach((c, j) => {
      const started = performance.now();
      const r = spawnSync(c.argv[0] as string, c.argv.slice(1), {
        cwd: repo,
        stdio: ["ignore", "ignore", "pipe"],
        env: { ...process.env, ...c.env },
      });
      const wallMs = performance.now() - started;
      if (r.status !== 0) throw new Error(`${c.argv.join(" ")} exited ${r.status ?? r.signal}: ${String(r.stderr).trim()}`);
      if (i > 0) out[j]?.push({ wallMs, cpuMs: undefined });
    });
  }
  return out;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
process.stdout.write(`run-startup: N=${RUNS} each (load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})\n`);
let failures = 0;
for (const pair of pairs) {
  try {
    const [corral, floor] = sample([{ argv: pair.corral, env: pair.env ?? {} }, { argv: pair.floor, env: {} }]) as [
      Sample[],
      Sample[],
    ];
    const stats = (samples: Sample[], key: "wallMs" | "cpuMs") => {
      const sorted = samples.map((x) => x[key] ?? NaN).sort((a, b) => a - b);
      return { median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9) };
    };
    const labels = pair.labels ?? ["corral run -- true", "bare spawn floor"];
    const cw = stats(corral, "wallMs");
    const fw = stats(floor, "wallMs");
    let report = `  ${pair.runtime}\n` +
      `    ${labels[0].padEnd(19)} wall median ${fmt(cw.median)}  p90 ${fmt(cw.p90)}\n` +
      `    ${labels[1].padEnd(19)} wall median ${fmt(fw.median)}  p90 ${fmt(fw.p90)}\n` +
      `    over the floor: ${fmt(cw.median - fw.median)} wall (median), ratio ${(cw.median / fw.median).toFixed(2)}x` +
      (pair.runtime.startsWith("node") && pair.labels === undefined ? ` (aim <= 25 ms)` : "") + "\n";
    if (corral[0]?.cpuMs !== undefined) {
      const cc = stats(corral, "cpuMs");
      const fc = stats(floor, "cpuMs");
      report += `    CPU time (user+sys) median: corral ${fmt(cc.median)}, floor ${fmt(fc.median)}, ` +
        `over the floor ${fmt(cc.median - fc.median)}\n`;
    }
    process.stdout.write(report);
  } catch (error) {
    failures++;
    process.stdout.write(`  ${pair.runtime}: ${(error as Error).message}\n`);
  }
}
process.exitCode = failures === 0 ? 0 : 1;
