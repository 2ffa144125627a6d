// Recording's cost: `cat` of a 100 MB file through a session, without a
// recording, with one bounded by --record-max (10 MiB: stops early, as a
// bounded recording of a flood does), and with an unbounded one (every byte
// encoded as JSON and written), in the same run on the same agent. Each
// time ends when the exit is reported, after every byte was parsed by the
// emulator. Rounds alternate so a loaded machine colours all three alike,
// after one uncounted warm-up round.
import { mkdtempSync, rmSync, openSync, writeSync, closeSync, statSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startAgent, fmt } from "./agent-bench-kit.ts";
import type { RecordingSpec } from "../../lib/agent/protocol/messages.ts";

const MB = Number(process.env.CORRAL_BENCH_MB ?? 100);
const ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 3);
const dir = mkdtempSync(path.join(os.tmpdir(), "corral-bench-record-"));
const file = path.join(dir, "data.txt");
{
  const line = (i: number) => `${String(i).padStart(9, "0")} ${"abcdefghijklmnopqrstuvwxyz0123456789".repeat(2).slice(0, 68)}\n`;
  const fd = openSync(file, "w");
  let written = 0;
  for (let i = 0; written < MB * 1048576; i += 1000) {
    let chunk = "";
    for (let j = 0; j < 1000; j++) chunk += line(i + j);
    writeSync(fd, chunk);
    written += chunk.length;
  }
  closeSync(fd);
}
const out = (text: string) => process.stdout.write(`${text}\n`);
const agent = startAgent("record");
const times: Record<string, number[]> = { none: [], bounded: [], unbounded: [] };
/** The agent's CPU time per run (ms): on a loaded machine a steadier figure than wall time. */
const cpu: Record<string, number[]> = { none: [], bounded: [], unbounded: [] };
const ticks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, at 100 ticks a second
};
const sizes: Record<string, number> = {};
try {
  const client = await agent.client();
  const run = async (kind: string, record: RecordingSpec | undefined) => {
    const start = performance.now();
    const cpuStart = ticks(agent.pid);
    const opened = await client.call({ op: "open", argv: ["cat", file], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, cwd: dir, ...(record ? { record } : {}) });
    await client.call({ op: "wait", session: opened.session.id, exit: true, timeoutMs: 600_000 });
    await client.call({ op: "screen", session: opened.session.id });
    (times[kind] as number[]).push(performance.now() - start);
    (cpu[kind] as number[]).push(ticks(agent.pid) - cpuStart);
    if (record) {
      // The file is complete once the recording reports it ended.
      for (let i = 0; i < 600; i++) {
        const screen = await client.call({ op: "screen", session: opened.session.id });
        if (screen.screen.recording?.active === false) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      sizes[kind] = statSync(record.path).size;
      rmSync(record.path, { force: true });
    }
    await client.call({ op: "close", session: opened.session.id, force: true });
  };
  // A first round warms the agent up (JIT, emulator code); it is not counted.
  await run("none", undefined);
  times.none = [];
  cpu.none = [];
  for (let round = 0; round < ROUNDS; round++) {
    await run("none", undefined);
    await run("bounded", { path: path.join(dir, "bounded.cast"), maxBytes: 10 * 1048576 });
    await run("unbounded", { path: path.join(dir, "unbounded.cast") });
  }
  client.close();
} finally {
  agent.stop();
  rmSync(dir, { recursive: true, force: true });
}
const best = (kind: string) => Math.min(...(times[kind] as number[]));
const rate = (kind: string) => MB / (best(kind) / 1000);
out(`cat ${MB} MB through a session, best of ${ROUNDS} rounds each`);
out(`  no recording:               ${fmt(rate("none"), 1)} MB/s`);
out(`  --record-max 10M:           ${fmt(rate("bounded"), 1)} MB/s (file ${fmt((sizes.bounded ?? 0) / 1048576, 2)} MiB)`);
out(`  unbounded recording:        ${fmt(rate("unbounded"), 1)} MB/s (file ${fmt((sizes.unbounded ?? 0) / 1048576, 1)} MiB)`);
out(`  every round (s): ${Object.entries(times).map(([kind, list]) => `${kind} ${list.map((ms) => fmt(ms / 1000, 2)).join(" ")}`).join("; ")}`);
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] as number;
out(`  agent CPU per run, median: none ${fmt(median(cpu.none as number[]), 0)} ms, bounded ${fmt(median(cpu.bounded as number[]), 0)} ms, unbounded ${fmt(median(cpu.unbounded as number[]), 0)} ms`);
out(`  CPU ratio bounded/none: ${fmt(median(cpu.bounded as number[]) / median(cpu.none as number[]), 2)}; unbounded/none: ${fmt(median(cpu.unbounded as number[]) / median(cpu.none as number[]), 2)}`);
out(`  ratio bounded/none: ${fmt(rate("bounded") / rate("none"), 2)}; unbounded/none: ${fmt(rate("unbounded") / rate("none"), 2)} (aim: bounded >= 0.90)`);
