// Issue 9 benchmark: what every one-shot command costs over the runtime's
// bare start (`node -e 0`, `deno eval 0`, `bun -e 0`), on Node, Deno and Bun
// in one run, each runtime running what an installed copy runs (README
// "Installing"): Node the bin, dist/corral.cjs; Deno and Bun dist/corral.mjs. Aim: within 25 ms of wall
// time of the floor; `pty send` and `pty screen` within 30 ms.
// CORRAL_BENCH_RUNS sets N (default 10); every command of one runtime runs
// interleaved with its floor, so a busy moment hurts all alike.
// CORRAL_BENCH_RUNTIMES=node,bun picks runtimes.
// Floor rows: small programs that only do, through Node's API, what corral's
// commands must (start a process and wait for it, write to stdout, connect
// to a Unix socket; the last row all three, as `run` does), run the same way. What they cost
// over the bare start is what Node's API costs on that runtime before any of
// corral's code runs (on Deno, each node: module's first import costs too).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const RUNS = Number(process.env.CORRAL_BENCH_RUNS ?? 10);
const bin = (name: string) => path.join(repo, "node_modules", ".bin", name);
const bundle = path.join(repo, "dist", "corral.mjs");
const nodeBin = path.join(repo, "dist", "corral.cjs");
const state = mkdtempSync(path.join(tmpdir(), "corral-startup-"));
const env = { CORRAL_STATE_DIR: state };

const runtimes: Record<string, { corral: string[]; floor: string[] }> = {
  node: { corral: [process.execPath, nodeBin], floor: [process.execPath, "-e", "0"] },
  deno: { corral: [bin("deno"), "run", "--allow-all", "--quiet", bundle], floor: [bin("deno"), "eval", "--quiet", "0"] },
  bun: { corral: [bin("bun"), bundle], floor: [bin("bun"), "-e", "0"] },
};
const floorDir = mkdtempSync(path.join(tmpdir(), "corral-startup-floor-"));
const floors: { label: string; file: string }[] = [
  { label: "floor: spawn `true`, wait (node:child_process)", source: 'import { spawn } from "node:child_process";\nspawn("true", { stdio: "inherit" }).on("exit", () => {});\n' },
  { label: "floor: one write to stdout (node:process)", source: 'import process from "node:process";\nprocess.stdout.write("");\n' },
  { label: "floor: connect to the agent (node:net)", source: `import net from "node:net";\nnet.createConnection(${JSON.stringify(path.join(state, "agent.sock"))}).on("connect", function () { this.destroy(); });\n` },
  {
    label: "floor: all three (the least a `run` does)",
    source: 'import { spawn } from "node:child_process";\nimport net from "node:net";\nimport process from "node:process";\n' +
      `net.createConnection(${JSON.stringify(path.join(state, "agent.sock"))}).on("connect", function () { this.destroy(); });\n` +
      'spawn("true", { stdio: "inherit" }).on("exit", () => process.stdout.write(""));\n',
  },
].map((f, i) => {
  const file = path.join(floorDir, `floor-${i}.mjs`);
  writeFileSync(file, f.source);
  return { label: f.label, file };
});
const floorArgv = (name: string, file: string): string[] =>
  name === "deno" ? [bin("deno"), "run", "--allow-all", "--quiet", file] : name === "bun" ? [bin("bun"), file] : [process.execPath, file];

const chosen = (process.env.CORRAL_BENCH_RUNTIMES ?? "node,deno,bun").split(",");

const commands: { label: string; args: string[]; aim: number }[] = [
  { label: "--version", args: ["--version"], aim: 25 },
  { label: "run -- true", args: ["run", "--", "true"], aim: 25 },
  { label: "collect -- true", args: ["collect", "--", "true"], aim: 25 },
  { label: "jobs", args: ["jobs"], aim: 25 },
  { label: "pty screen", args: ["pty", "screen", "bench"], aim: 30 },
  { label: "pty send", args: ["pty", "send", "bench", "--key", "C-l"], aim: 30 },
];

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
        if i > 0: out[j].append([wall, cpu])  # run 0 warms the page cache, Deno's cache and the compile cache
print(json.dumps(out))
`;

/** N interleaved samples (wall, cpu) of each argv. */
function sample(argvs: readonly string[][]): [number, number][][] {
  const py = spawnSync("python3", ["-c", TIMER_PY, JSON.stringify([RUNS, argvs.map((a) => [a, env])])], { cwd: repo, maxBuffer: 1 << 24 });
  if (py.error !== undefined) throw new Error(`python3 is needed to time the runs: ${py.error.message}`);
  if (py.status !== 0) throw new Error(String(py.stderr).trim());
  return JSON.parse(String(py.stdout)) as [number, number][][];
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] as number;
};

// A session for pty screen/send, opened by the Node client (the agent is shared by all runtimes).
const open = spawnSync(process.execPath, [bundle, "pty", "open", "--name", "bench", "--", "cat"], { env: { ...process.env, ...env }, encoding: "utf8" });
if (open.status !== 0) throw new Error(`pty open failed: ${open.stderr}`);
let failures = 0;
try {
  process.stdout.write(`startup: N=${RUNS}, median ms (load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})\n\n`);
  process.stdout.write("| runtime | command | wall | over bare start | aim | CPU | CPU over bare start |\n|---|---|---|---|---|---|---|\n");
  for (const name of chosen) {
    const rt = runtimes[name];
    if (rt === undefined) throw new Error(`unknown runtime ${name}`);
    try {
      const [floor, ...rest] = sample([rt.floor, ...commands.map((c) => [...rt.corral, ...c.args]), ...floors.map((f) => floorArgv(name, f.file))]);
      const fw = median(floor!.map((s) => s[0]));
      const fc = median(floor!.map((s) => s[1]));
      process.stdout.write(`| ${name} | bare start (\`${rt.floor.slice(1).join(" ").replace(/^.*\//, "")}\`) | ${fw.toFixed(0)} | | | ${fc.toFixed(0)} | |\n`);
      commands.forEach((c, i) => {
        const w = median(rest[i]!.map((s) => s[0]));
        const cpu = median(rest[i]!.map((s) => s[1]));
        const over = w - fw;
        process.stdout.write(`| ${name} | \`${c.label}\` | ${w.toFixed(0)} | ${over >= 0 ? "+" : ""}${over.toFixed(0)} | ${over <= c.aim ? "met" : "not met"} (${c.aim}) | ${cpu.toFixed(0)} | +${(cpu - fc).toFixed(0)} |\n`);
      });
      floors.forEach((f, i) => {
        const samples = rest[commands.length + i]!;
        const w = median(samples.map((s) => s[0]));
        const over = w - fw;
        process.stdout.write(`| ${name} | ${f.label} | ${w.toFixed(0)} | ${over >= 0 ? "+" : ""}${over.toFixed(0)} | | ${median(samples.map((s) => s[1])).toFixed(0)} | +${(median(samples.map((s) => s[1])) - fc).toFixed(0)} |\n`);
      });
    } catch (error) {
      failures++;
      process.stdout.write(`| ${name} | failed: ${(error as Error).message.split("\n")[0]} | | | | | |\n`);
    }
  }
} finally {
  spawnSync(process.execPath, [bundle, "reap", "--all"], { env: { ...process.env, ...env } });
  spawnSync(process.execPath, [bundle, "agent", "stop", "--force"], { env: { ...process.env, ...env } });
  rmSync(state, { recursive: true, force: true });
  rmSync(floorDir, { recursive: true, force: true });
}
process.exitCode = failures === 0 ? 0 : 1;
