// Issue 3 benchmark, collect's fast path: the guardian writes the spill file
// itself (splice pipe -> file, no byte through JavaScript) and hands the
// owner head, tail and the total; or, "direct", the file is the child's
// stdout (no pipe at all) and the guardian reads head and tail back. Against `cat BIG > F` (aim: at most 1.5x
// its time on 1 GiB) and a JavaScript owner reading the same pipe into the
// file (what a spill costs without the fast path). The capture row is what
// collect --spill uses since issue 12: read, line feeds counted, written to F
// (native/capture.c; spliced and counted through mmap until 2026-12-03), so
// no `wc -l` pass follows. The tee row is collect
// --live since issue 12: read, written to F and to corral's stdout. Same run, best of 3.
// CORRAL_BENCH_BIG_MB sets the size (default 1024).
import { spawn } from "node:child_process";
import { closeSync, createWriteStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnGuardian } from "../../lib/supervise/guardian/launch.ts";
import { locateGuardian } from "../../lib/supervise/guardian/binary.ts";

const sizeMb = Number(process.env.CORRAL_BENCH_BIG_MB ?? 1024);
const RUNS = 3;
const dir = mkdtempSync(path.join(tmpdir(), "corral-bench-gspill-"));
const big = path.join(dir, "big");
const out = path.join(dir, "out");
const block = randomBytes(1024 * 1024);
const fd = openSync(big, "w");
for (let i = 0; i < sizeMb; i++) writeSync(fd, block);
closeSync(fd);
const bytes = statSync(big).size;

function exited(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`status ${code}`)))));
}

async function catToFile(): Promise<number> {
  rmSync(out, { force: true });
  const t = performance.now();
  await exited(spawn("sh", ["-c", `cat ${big} > ${out}`], { stdio: "ignore" }));
  return performance.now() - t;
}

async function guardianSpill(direct = false, capture = false, tee = false): Promise<number> {
  const found = locateGuardian();
  if (!found.built) throw new Error(found.why);
  rmSync(out, { force: true });
  // collect --live: the guardian also writes every byte to corral's stdout (here /dev/null).
  const teeFd = tee ? openSync("/dev/null", "w") : undefined;
  const t = performance.now();
  const g = spawnGuardian({ ...(teeFd === undefined ? {} : { teeStdout: teeFd }), argv: ["cat", big], mode: "pipe", stdin: "null", stderr: "null", spillStdout: out, spillDirect: direct, captureStdout: capture, headBytes: 64 * 1024, tailBytes: 1024 * 1024 }, { stateDir: dir, binary: found.path });
  if (teeFd !== undefined) closeSync(teeFd);
  let tail = 0;
  g.on("tail", (_s, b) => (tail += b.length));
  const total = new Promise<number>((resolve) => g.on("spilled", (e) => resolve(e.total)));
  await g.exited;
  const got = await total;
  const ms = performance.now() - t;
  await g.shutdown(0);
  await g.processExit;
  if (got !== bytes || statSync(out).size !== bytes || tail !== Math.min(bytes, 1024 * 1024)) throw new Error(`spilled ${got} of ${bytes}`);
  return ms;
}

async function jsPipeToFile(): Promise<number> {
  rmSync(out, { force: true });
  const t = performance.now();
  const child = spawn("cat", [big], { stdio: ["ignore", "pipe", "ignore"] });
  const file = createWriteStream(out);
  child.stdout.pipe(file);
  await Promise.all([exited(child), new Promise<void>((resolve) => file.on("close", () => resolve()))]);
  return performance.now() - t;
}

const best = async (fn: () => Promise<number>) => {
  let b = Infinity;
  for (let i = 0; i < RUNS; i++) b = Math.min(b, await fn());
  return b;
};
const base = await best(catToFile);
const fast = await best(() => guardianSpill(false));
const direct = await best(() => guardianSpill(true));
// What collect --spill uses: splice, line feeds counted through mmap (native/capture.c).
const counted = await best(() => guardianSpill(false, true));
const teed = await best(() => guardianSpill(false, true, true));
const js = await best(jsPipeToFile);
const mbps = (ms: number) => (bytes / 1048576 / (ms / 1000)).toFixed(0);
process.stdout.write(`spill of ${sizeMb} MiB, best of ${RUNS}:\n`);
process.stdout.write(`  cat BIG > F                     ${base.toFixed(0).padStart(6)} ms  ${mbps(base).padStart(5)} MiB/s  (baseline)\n`);
process.stdout.write(`  guardian spill (splice)         ${fast.toFixed(0).padStart(6)} ms  ${mbps(fast).padStart(5)} MiB/s  ratio ${(fast / base).toFixed(2)}\n`);
process.stdout.write(`  guardian spill (direct file)    ${direct.toFixed(0).padStart(6)} ms  ${mbps(direct).padStart(5)} MiB/s  ratio ${(direct / base).toFixed(2)}\n`);
process.stdout.write(`  guardian spill (capture: read, count, write F) ${counted.toFixed(0).padStart(6)} ms  ${mbps(counted).padStart(5)} MiB/s  ratio ${(counted / base).toFixed(2)}\n`);
process.stdout.write(`  guardian capture + tee (--live: read, write F, write /dev/null) ${teed.toFixed(0).padStart(6)} ms  ${mbps(teed).padStart(5)} MiB/s  ratio ${(teed / base).toFixed(2)}\n`);
process.stdout.write(`  JS pipe -> file (no fast path)  ${js.toFixed(0).padStart(6)} ms  ${mbps(js).padStart(5)} MiB/s  ratio ${(js / base).toFixed(2)}\n`);
rmSync(dir, { recursive: true, force: true });
