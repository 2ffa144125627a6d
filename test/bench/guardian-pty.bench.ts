// Issue 3 benchmark: PTY throughput of `cat` of a 100 MB file through the
// guardian, through node-pty and through tmux, in the same run. Each path
// ends when the consumer has read every byte (and the program exited):
// guardian -> the owner's socket events; node-pty -> its onData; tmux ->
// `pipe-pane` into a file (tmux also parses every byte into its screen,
// which is what using tmux costs). The terminal is put in raw mode first
// (stty raw -echo: no output processing), so the byte count is exact.
// CORRAL_BENCH_PTY_MB sets the size (default 100); median of 3 runs each.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnGuardian } from "../../lib/supervise/guardian/launch.ts";
import { locateGuardian } from "../../lib/supervise/guardian/binary.ts";

const sizeMb = Number(process.env.CORRAL_BENCH_PTY_MB ?? 100);
const RUNS = 3;
const dir = mkdtempSync(path.join(tmpdir(), "corral-bench-pty-"));
const file = path.join(dir, "text");
// Printable text lines (base64), so no path sees escape sequences to act on.
const line = (n: number) => randomBytes(n).toString("base64").replace(/(.{76})/g, "$1\n");
writeFileSync(file, line(Math.ceil((sizeMb * 1024 * 1024 * 3) / 4)).slice(0, sizeMb * 1024 * 1024));
const bytes = statSync(file).size;
const script = `stty raw -echo; exec cat ${file}`;

async function viaGuardian(): Promise<number> {
  const found = locateGuardian();
  if (!found.built) throw new Error(found.why);
  const started = performance.now();
  const g = spawnGuardian({ argv: ["sh", "-c", script], mode: "pty", rows: 24, cols: 80 }, { stateDir: dir, binary: found.path });
  let got = 0;
  g.on("output", (_s, b) => (got += b.length));
  await g.exited;
  const ms = performance.now() - started;
  await g.shutdown(0);
  await g.processExit;
  if (got !== bytes) throw new Error(`guardian delivered ${got} of ${bytes} bytes`);
  return ms;
}

async function viaNodePty(): Promise<number> {
  const pty = await import("@lydell/node-pty");
  const started = performance.now();
  const p = pty.spawn("sh", ["-c", script], { cols: 80, rows: 24, encoding: null } as unknown as import("@lydell/node-pty").IPtyForkOptions);
  let got = 0;
  p.onData((d: string | Uint8Array) => (got += typeof d === "string" ? Buffer.byteLength(d) : d.length));
  await new Promise<void>((resolve) => p.onExit(() => resolve()));
  const ms = performance.now() - started;
  if (got !== bytes) process.stdout.write(`  (node-pty delivered ${got} of ${bytes} bytes: lost ${bytes - got} at exit)\n`);
  return ms;
}

async function viaTmux(): Promise<number> {
  const socket = `corral-bench-${process.pid}`;
  const out = path.join(dir, "tmux-out");
  const gate = path.join(dir, "gate");
  rmSync(out, { force: true });
  const tmux = (...args: string[]) => spawnSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  // The pane waits on a fifo until pipe-pane is in place, so no byte escapes the measurement.
  spawnSync("mkfifo", [gate]);
  // No exec: the pane must outlive cat, or tmux drops what it has not yet piped.
  tmux("new-session", "-d", "-x", "80", "-y", "24", `sh -c 'read x < ${gate}; stty raw -echo; cat ${file}; sleep 3600'`);
  tmux("pipe-pane", "-o", `cat > ${out}`);
  const started = performance.now();
  spawnSync("sh", ["-c", `echo go > ${gate}`]);
  for (;;) {
    let size = 0;
    try {
      size = statSync(out).size;
    } catch {
      // not created yet
    }
    if (size >= bytes) break;
    if (performance.now() - started > 120_000) {
      tmux("kill-server");
      throw new Error(`tmux piped ${size} of ${bytes} bytes in 120 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const ms = performance.now() - started;
  tmux("kill-server");
  rmSync(gate, { force: true });
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const results: Record<string, number> = {};
for (const [name, fn] of [["guardian", viaGuardian], ["node-pty", viaNodePty], ["tmux", viaTmux]] as const) {
  const times: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) times.push(await fn());
  } catch (error) {
    process.stdout.write(`${name.padEnd(9)} unavailable: ${(error as Error).message}\n`);
    continue;
  }
  results[name] = median(times);
}
process.stdout.write(`PTY throughput, cat of ${(bytes / 1e6).toFixed(0)} MB, median of ${RUNS}:\n`);
const mbps = (ms: number) => bytes / 1e6 / (ms / 1000);
for (const [name, ms] of Object.entries(results)) {
  process.stdout.write(`  ${name.padEnd(9)} ${ms.toFixed(0).padStart(6)} ms  ${mbps(ms).toFixed(0).padStart(5)} MB/s\n`);
}
const g = results["guardian"];
if (g !== undefined) {
  for (const other of ["node-pty", "tmux"]) {
    const o = results[other];
    if (o !== undefined) process.stdout.write(`  ratio guardian/${other} time: ${(g / o).toFixed(2)} (guardian ${(o / g).toFixed(2)}x faster)\n`);
  }
}
rmSync(dir, { recursive: true, force: true });
