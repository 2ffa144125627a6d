// `run --bg` + `collect --job --follow` on a job writing 200 MB (issue 5):
// the agent's memory stays bounded (peak RSS against its idle RSS), the
// follower's bytes and the spill file are byte-identical to what the job
// wrote (sha256), and a job without a spill reports exactly the range it
// lost. Baseline in the same run: reading the same file straight into
// sha256 in this process. Prints the figures and the ratios.
// Run: npm run bench -- jobs-follow   (CORRAL_BENCH_MB=50 for a quicker run)
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, readFileSync, rmSync, openSync, writeSync, closeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corralCommand } from "../support/corral-cli.ts";

const MB = Number(process.env.CORRAL_BENCH_MB ?? 200);
const TOTAL = MB * 1024 * 1024;
const HEAD = 64 * 1024;
const TAIL = 1024 * 1024;

const dir = mkdtempSync(path.join(os.tmpdir(), "corral-bench-jobs-"));
const env = { ...process.env, CORRAL_STATE_DIR: path.join(dir, "state"), CORRAL_SOCKET: "", CORRAL_AGENT_IDLE: "5m" };
const [file, ...prefix] = corralCommand() as [string, ...string[]];
const corral = (args: string[]) => spawnSync(file, [...prefix, ...args], { env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

function sha256File(p: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(p).on("data", (c) => hash.update(c)).on("end", () => resolve(hash.digest("hex"))).on("error", reject);
  });
}

/** The agent's resident memory now, and its peak (VmHWM), from /proc: no sampling needed. */
function agentMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

/** Runs `collect --job ID --follow`, hashing stdout as it streams; resolves with sha and status. */
function follow(id: string): Promise<{ sha: string; bytes: number; status: number | null; stderr: string }> {
  const child = spawn(file, [...prefix, "collect", "--job", id, "--follow"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const hash = createHash("sha256");
  let bytes = 0;
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    hash.update(c);
    bytes += c.length;
  });
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on("close", (status) => resolve({ sha: hash.digest("hex"), bytes, status, stderr })));
}

async function main(): Promise<void> {
  const data = path.join(dir, "data.bin");
  const fd = openSync(data, "w");
  const block = randomBytes(1024 * 1024);
  for (let i = 0; i < MB; i++) {
    block[0] = i & 0xff; // every MiB differs
    writeSync(fd, block);
  }
  closeSync(fd);

  let t = performance.now();
  const expected = await sha256File(data);
  const baselineMs = performance.now() - t;

  const agentPid = (JSON.parse(corral(["agent", "start", "--json"]).stdout) as { pid: number }).pid;
  const idleRss = agentMemory(agentPid).rss;
  const spill = path.join(dir, "job.spill");
  t = performance.now();
  const start = corral(["run", "--bg", "--spill", spill, "--head-bytes", String(HEAD), "--max-bytes", String(TAIL), "--", "cat", data]);
  if (start.status !== 0) throw new Error(`run --bg failed: ${start.stderr}`);
  const id = start.stdout.trim();
  const followed = await follow(id);
  const followMs = performance.now() - t;
  const peakRss = agentMemory(agentPid).peak;
  const spillSha = await sha256File(spill);

  // Without a spill: the reader from 0 after the end must be told exactly what was lost.
  const lossy = corral(["run", "--bg", "--head-bytes", String(HEAD), "--max-bytes", String(TAIL), "--", "cat", data]).stdout.trim();
  await follow(lossy); // wait for its end
  const late = spawnSync(file, [...prefix, "collect", "--job", lossy], { env, maxBuffer: 64 * 1024 * 1024 });
  const lostLine = `bytes ${HEAD}..${TOTAL - TAIL} are lost`;
  const lostOk = late.stderr.toString().includes(lostLine) && late.stdout.length === HEAD + TAIL;

  corral(["reap", "--all"]);
  corral(["agent", "stop", "--force"]);
  rmSync(dir, { recursive: true, force: true });

  const mbps = (bytes: number, ms: number) => (bytes / 1048576 / (ms / 1000)).toFixed(0);
  console.log(`job output: ${MB} MiB through run --bg + collect --job --follow`);
  console.log(`  follow: ${followMs.toFixed(0)} ms (${mbps(TOTAL, followMs)} MiB/s); baseline sha256 of the file: ${baselineMs.toFixed(0)} ms (${mbps(TOTAL, baselineMs)} MiB/s); ratio ${(followMs / baselineMs).toFixed(1)}x`);
  console.log(`  agent rss: before ${(idleRss / 1048576).toFixed(1)} MiB, peak (VmHWM) ${(peakRss / 1048576).toFixed(1)} MiB; ratio ${(peakRss / idleRss).toFixed(2)}x (output ${MB} MiB, store head ${HEAD / 1024} KiB + tail ${TAIL / 1048576} MiB)`);
  console.log(`  follower bytes ${followed.bytes} (expected ${TOTAL}), status ${followed.status}, sha256 ${followed.sha === expected ? "identical" : "DIFFERENT"}`);
  console.log(`  spill sha256 ${spillSha === expected ? "identical" : "DIFFERENT"}; lost range without spill ${lostOk ? `correct (${lostLine})` : `WRONG: ${late.stderr.toString().trim()}`}`);
  if (followed.sha !== expected || spillSha !== expected || !lostOk || followed.status !== 0) process.exitCode = 1;
}

await main();
