// Issue 2 benchmark: `corral collect --max-bytes 1MiB --spill F -- cat BIG`
// against `cat BIG > F` (aim: at most 1.5x, peak memory under 100 MB at any
// size). Two more rows explain the ratio: `cat BIG | cat > F` (the cost of
// any pipe at all; `cat > F` alone is an in-kernel copy_file_range) and a bare
// Node script that reads cat's pipe and discards it (the JavaScript floor).
// CORRAL_BENCH_BIG_MB sets the size (default 1024); best of 3 each.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const sizeMb = Number(process.env.CORRAL_BENCH_BIG_MB ?? 1024);
const RUNS = 3;
const dir = mkdtempSync(path.join(tmpdir(), "corral-bench-spill-"));
const big = path.join(dir, "big");
const out = path.join(dir, "out");

interface Timed {
  readonly ms: number;
  /** Peak RSS of the timed process (VmHWM polled from /proc), in bytes, if seen. */
  readonly peakRss: number | undefined;
}

/** Runs argv with stdout to `stdoutPath` (or /dev/null), timing it and watching its peak RSS. */
function timed(argv: readonly string[], stdoutPath = "/dev/null"): Promise<Timed> {
  const fd = openSync(stdoutPath, "w");
  const started = performance.now();
  const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["ignore", fd, "inherit"], cwd: repo });
  closeSync(fd);
  let peakRss: number | undefined;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) peakRss = Math.max(peakRss ?? 0, Number(m[1]) * 1024);
    } catch {
      // gone already
    }
  }, 10);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      const ms = performance.now() - started;
      clearInterval(poll);
      if (code !== 0) reject(new Error(`${argv.join(" ")} exited ${code ?? signal}`));
      else resolve({ ms, peakRss });
    });
  });
}

function makeBig(): void {
  // A 16 MiB random block repeated: incompressible enough, and fast to write.
  const block = randomBytes(16 * 1024 * 1024);
  const fd = openSync(big, "w");
  let left = sizeMb * 1024 * 1024;
  while (left > 0) {
    const n = Math.min(left, block.length);
    writeSync(fd, block, 0, n);
    left -= n;
  }
  closeSync(fd);
}

async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const nodeFloor = `const c=require("child_process").spawn("cat",[process.argv[1]],{stdio:["ignore","pipe","inherit"]});c.stdout.on("data",()=>{});`;
const cases: Record<string, () => Promise<Timed>> = {
  "cat BIG > F": () => timed(["cat", big], out),
  "cat BIG | cat > F": () => timed(["sh", "-c", 'cat "$1" | cat > "$2"', "sh", big, out]),
  "node reads cat's pipe, discards": () => timed([process.execPath, "-e", nodeFloor, big]),
  "corral collect --spill": () =>
    timed([process.execPath, path.join(repo, "dist", "corral.mjs"), "collect", "--max-bytes", "1MiB", "--spill", out, "--", "cat", big]),
};

const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
try {
  process.stdout.write(`collect-spill: ${sizeMb} MiB, best of ${RUNS} (load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})\n`);
  makeBig();
  const best = new Map<string, Timed>();
  let peak = 0;
  for (let run = 0; run < RUNS; run++) {
    // Interleaved, so a busy moment on the machine hurts every row alike.
    for (const [name, go] of Object.entries(cases)) {
      const t = await go();
      if ((best.get(name)?.ms ?? Infinity) > t.ms) best.set(name, t);
      if (name.startsWith("corral")) peak = Math.max(peak, t.peakRss ?? 0);
    }
  }
  const spill = `${out}.stdout`; // separate streams: FILE gets .stdout/.stderr
  const same = statSync(spill).size === statSync(big).size && (await sha256(spill)) === (await sha256(big));
  const cat = (best.get("cat BIG > F") as Timed).ms;
  const pipe = (best.get("cat BIG | cat > F") as Timed).ms;
  const corral = (best.get("corral collect --spill") as Timed).ms;
  for (const [name, t] of best) process.stdout.write(`  ${name.padEnd(34)} ${fmt(t.ms)}  ${(t.ms / cat).toFixed(2)}x\n`);
  process.stdout.write(`ratio corral / (cat > F):        ${(corral / cat).toFixed(2)}x (aim <= 1.5x)\n`);
  process.stdout.write(`ratio corral / (cat | cat > F):  ${(corral / pipe).toFixed(2)}x\n`);
  process.stdout.write(`corral peak RSS: ${(peak / 1048576).toFixed(1)} MiB (aim < 100 MB)\n`);
  process.stdout.write(`spill identical (size + sha256): ${same ? "yes" : "NO"}\n`);
  if (!same) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
