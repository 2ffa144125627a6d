// The trial issue 9 asked for: would moving the emulator's parsing to worker
// threads gain on this machine? N streams of real `yes` output (child
// processes' pipes) are each parsed by the agent's terminal (80x24, default
// scrollback, screen-emulator.ts), while one quiet terminal on the main
// thread has its screen read every 100 ms. Three variants, interleaved in one
// run: (a) every terminal on the main thread; (b) one worker per flooding
// terminal; (c) the flooding terminals shared by 2 workers. Prints parse
// throughput, the quiet read's latency (from when it was due, so event-loop
// delay counts), a flooding terminal's read latency, process CPU and the
// machine's busy share, then a verdict computed from those figures.
// Bytes go into xterm as they arrive (no ParseBatcher, so no scroll-skip):
// this weighs raw parsing, which is what a worker could take off the loop.
// A fourth variant, (t), is the agent's own path on the main thread as it
// is now: each terminal's ParseBatcher (scroll-skip, one flood slice per
// event-loop turn, round-robin: parse-turns.ts); its MB/s counts received
// bytes, of which scroll-skip leaves xterm only what can still be seen.
// Longer than 300 lines because the four variants are one experiment: their sinks, the round that
// drives them and the table that compares them are read together.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { Worker } from "node:worker_threads";
import { Emulator, loadTerminal } from "../../lib/pty/screen-emulator.ts";
import { DEFAULT_SCROLLBACK } from "../../lib/pty/screen-size.ts";
import { fmt, percentile } from "./agent-bench-kit.ts";
import { type FromParseWorker, PARSE_WORKER_ROLE, type ToParseWorker, agentEmulator, screenText } from "./parse-worker-thread.ts";

const STREAMS = Number(process.env.CORRAL_BENCH_SESSIONS ?? 8);
const SECONDS = Number(process.env.CORRAL_BENCH_SECONDS ?? 8);
/** Each variant's time is split into this many rounds, run a b c a b c, so drift in machine load touches all three. */
const ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 2);
/** Long enough for a fresh worker's JIT to warm up on a shared core (8 workers on 2 cores). */
const WARM_UP_MS = 2000;
const READ_EVERY_MS = 100;
/** Flow control, as a PTY gives it: a stream's pipe pauses while this much is unparsed, resumes below LOW. */
const HIGH_WATER = 1 << 20;
const LOW_WATER = 256 << 10;
const TICKS_PER_SECOND = 100; // USER_HZ, for /proc/PID/stat
const out = (line: string) => process.stdout.write(`${line}\n`);

type Variant = "a" | "t" | "b" | "c";
const LABELS: Record<Variant, string> = {
  a: "(a) main thread",
  t: "(t) main thread, the agent's path (batcher, turns)",
  b: `(b) ${STREAMS} workers, 1 each`,
  c: "(c) 2 workers, shared",
};

/** What one round of one variant measured, inside its window. */
interface RoundFigures {
  seconds: number;
  parsedBytes: number;
  quietMs: number[];
  floodMs: number[];
  processCpuSeconds: number;
  yesCpuSeconds: number;
  machineBusy: number;
  machineTotal: number;
}

// Every `yes` started, so none survives a throw or an interrupt.
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => process.exit(130));

function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

function childCpuSeconds(): number {
  let ticks = 0;
  for (const child of children) {
    try {
      const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited already
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** Where a flooding stream's bytes go, and how its screen is read. */
interface FloodSink {
  write(stream: number, bytes: Buffer): void;
  /** Resolves with the screen text and the ms the read took by this variant's measure. */
  readScreen(stream: number, dueAt: number): Promise<number>;
  close(): Promise<void>;
}

/** (a): the terminals live here; a write's callback counts it parsed. */
async function mainThreadSink(onParsed: (stream: number, bytes: number) => void): Promise<FloodSink> {
  const emulators: Emulator[] = [];
  for (let i = 0; i < STREAMS; i++) emulators.push(await agentEmulator());
  return {
    write(stream, bytes) {
      emulators[stream]?.term.write(bytes, () => onParsed(stream, bytes.length));
    },
    readScreen(stream, dueAt) {
      const emulator = emulators[stream] as Emulator;
      screenText(emulator);
      return Promise.resolve(performance.now() - dueAt);
    },
    close() {
      for (const emulator of emulators) emulator.dispose();
      return Promise.resolve();
    },
  };
}

/** (t): the agent's path: bytes pushed to each emulator's ParseBatcher, counted as its onParsed reports them. */
async function agentPathSink(onParsed: (stream: number, bytes: number) => void): Promise<FloodSink> {
  const emulators: Emulator[] = [];
  for (let i = 0; i < STREAMS; i++) {
    emulators.push(new Emulator(await loadTerminal(), 80, 24, DEFAULT_SCROLLBACK, { onReply: () => {}, onParsed: (bytes) => onParsed(i, bytes) }));
  }
  return {
    write(stream, bytes) {
      emulators[stream]?.batcher.push(bytes);
    },
    readScreen(stream, dueAt) {
      screenText(emulators[stream] as Emulator);
      return Promise.resolve(performance.now() - dueAt);
    },
    close() {
      for (const emulator of emulators) emulator.dispose();
      return Promise.resolve();
    },
  };
}

// Node 20 loads a worker's entry file before the --import hooks it inherits
// apply (ERR_UNKNOWN_FILE_EXTENSION for .ts), so the worker registers tsx
// itself and then imports its script.
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL("./parse-worker-thread.ts", import.meta.url).href)}); });`;

/** (b) and (c): streams spread over `count` workers; bytes are transferred, reads are message round trips. */
async function workerSink(count: number, onParsed: (stream: number, bytes: number) => void): Promise<FloodSink> {
  const workers: Worker[] = [];
  const asks = new Map<number, (text: string) => void>();
  let nextAsk = 0;
  const opened: Promise<void>[] = [];
  for (let w = 0; w < count; w++) {
    const worker = new Worker(WORKER_BOOT, { eval: true, workerData: { role: PARSE_WORKER_ROLE } });
    const waiting = new Map<number, () => void>();
    worker.on("message", (message: FromParseWorker) => {
      if (message.kind === "parsed") onParsed(message.stream, message.bytes);
      else if (message.kind === "screen") {
        asks.get(message.ask)?.(message.text);
        asks.delete(message.ask);
      } else waiting.get(message.stream)?.();
    });
    workers.push(worker);
    for (let stream = w; stream < STREAMS; stream += count) {
      opened.push(new Promise((resolve) => waiting.set(stream, resolve)));
      worker.postMessage({ kind: "open", stream } satisfies ToParseWorker);
    }
  }
  await Promise.all(opened);
  const workerOf = (stream: number) => workers[stream % count] as Worker;
  return {
    write(stream, bytes) {
      // A pipe's chunk may be a view of a larger buffer: transfer a buffer of its own.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
      workerOf(stream).postMessage({ kind: "bytes", stream, bytes: own } satisfies ToParseWorker, [own.buffer as ArrayBuffer]);
    },
    readScreen(stream) {
      const ask = nextAsk++;
      const start = performance.now();
      return new Promise((resolve) => {
        asks.set(ask, () => resolve(performance.now() - start));
        workerOf(stream).postMessage({ kind: "screen", stream, ask } satisfies ToParseWorker);
      });
    },
    async close() {
      for (const worker of workers) worker.postMessage({ kind: "close" } satisfies ToParseWorker);
      await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once("exit", resolve))));
    },
  };
}

async function runRound(variant: Variant, seconds: number): Promise<RoundFigures> {
  const unparsed: number[] = new Array(STREAMS).fill(0);
  const streams: ChildProcess[] = [];
  let parsedBytes = 0;
  const onParsed = (stream: number, bytes: number) => {
    parsedBytes += bytes;
    unparsed[stream] = (unparsed[stream] ?? 0) - bytes;
    if ((unparsed[stream] ?? 0) < LOW_WATER && streams[stream]?.stdout?.isPaused()) streams[stream]?.stdout?.resume();
  };
  const sink = variant === "a" ? await mainThreadSink(onParsed) : variant === "t" ? await agentPathSink(onParsed) : await workerSink(variant === "b" ? STREAMS : 2, onParsed);
  const quiet = await agentEmulator();
  quiet.term.write("$ cat\r\nquiet session: one line, then nothing\r\n");

  for (let i = 0; i < STREAMS; i++) {
    const child = spawn("yes", [`stream ${i} floods the terminal with a line of output that never ends`], { stdio: ["ignore", "pipe", "ignore"] });
    children.add(child);
    streams.push(child);
    child.stdout?.on("data", (bytes: Buffer) => {
      unparsed[i] = (unparsed[i] ?? 0) + bytes.length;
      sink.write(i, bytes);
      if ((unparsed[i] ?? 0) > HIGH_WATER) child.stdout?.pause();
    });
  }

  const quietMs: number[] = [];
  const floodMs: number[] = [];
  let measuring = false;
  let reading = true;
  let tick = 0;
  const origin = performance.now();
  const pending: Promise<unknown>[] = [];
  const readsDone = new Promise<void>((resolve) => {
    const next = () => {
      if (!reading) return resolve();
      const dueAt = origin + ++tick * READ_EVERY_MS;
      setTimeout(() => {
        screenText(quiet);
        const quietLatency = performance.now() - dueAt;
        const counted = measuring;
        if (counted) quietMs.push(quietLatency);
        pending.push(sink.readScreen(tick % STREAMS, dueAt).then((ms) => counted && floodMs.push(ms)));
        next();
        // Rounded up: Node runs timers in whole ms, and a timer rounded down fires before it is due.
      }, Math.max(0, Math.ceil(dueAt - performance.now())));
    };
    next();
  });

  await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
  measuring = true;
  const start = { at: performance.now(), parsed: parsedBytes, cpu: process.cpuUsage(), yes: childCpuSeconds(), machine: machineTicks() };
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const end = { at: performance.now(), parsed: parsedBytes, cpu: process.cpuUsage(start.cpu), yes: childCpuSeconds(), machine: machineTicks() };
  measuring = false;
  reading = false;

  for (const child of streams) child.kill("SIGKILL");
  await Promise.all(streams.map((child) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => child.once("exit", resolve)))));
  for (const child of streams) children.delete(child);
  await readsDone;
  await Promise.all(pending);
  await sink.close();
  quiet.dispose();
  return {
    seconds: (end.at - start.at) / 1000,
    parsedBytes: end.parsed - start.parsed,
    quietMs,
    floodMs,
    processCpuSeconds: (end.cpu.user + end.cpu.system) / 1e6,
    yesCpuSeconds: end.yes - start.yes,
    machineBusy: end.machine.busy - start.machine.busy,
    machineTotal: end.machine.total - start.machine.total,
  };
}

/** The rounds of one variant, pooled. */
interface VariantFigures {
  mbPerSecond: number;
  quietP50: number;
  quietP95: number;
  floodP50: number;
  floodP95: number;
  processCores: number;
  yesCores: number;
  machineBusyShare: number;
  /** Busy cores not used by this process or its `yes` children. */
  otherCores: number;
}

function pool(rounds: readonly RoundFigures[]): VariantFigures {
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const quiet = rounds.flatMap((r) => r.quietMs);
  const flood = rounds.flatMap((r) => r.floodMs);
  return {
    mbPerSecond: rounds.reduce((sum, r) => sum + r.parsedBytes, 0) / 1e6 / seconds,
    quietP50: percentile(quiet, 50),
    quietP95: percentile(quiet, 95),
    floodP50: percentile(flood, 50),
    floodP95: percentile(flood, 95),
    processCores: rounds.reduce((sum, r) => sum + r.processCpuSeconds, 0) / seconds,
    yesCores: rounds.reduce((sum, r) => sum + r.yesCpuSeconds, 0) / seconds,
    machineBusyShare: rounds.reduce((sum, r) => sum + r.machineBusy, 0) / rounds.reduce((sum, r) => sum + r.machineTotal, 0),
    otherCores: rounds.reduce((sum, r) => sum + r.machineBusy / TICKS_PER_SECOND - r.processCpuSeconds - r.yesCpuSeconds, 0) / seconds,
  };
}

/** Gain of `x` over `base`, where larger is better (throughput) or smaller is better (latency). */
function gain(x: number, base: number, larger: boolean): number {
  return larger ? x / base - 1 : base / x - 1;
}

const variants: Variant[] = ["a", "t", "b", "c"];
const rounds = new Map<Variant, RoundFigures[]>(variants.map((v) => [v, []]));
out(`${STREAMS} yes streams parsed for ${SECONDS} s per variant (${ROUNDS} interleaved rounds, ${WARM_UP_MS} ms warm-up each), quiet screen read every ${READ_EVERY_MS} ms; ${os.cpus().length} cores, node ${process.version}`);
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of variants) rounds.get(variant)?.push(await runRound(variant, SECONDS / ROUNDS));
}
const figures = new Map(variants.map((v) => [v, pool(rounds.get(v) ?? [])]));

out("");
out("| variant | parsed MB/s | quiet read p50 / p95 ms | flooding read p50 / p95 ms | process CPU (cores) | yes CPU (cores) | machine busy | rest of machine (cores) |");
out("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const variant of variants) {
  const f = figures.get(variant) as VariantFigures;
  const floodHow = variant === "a" || variant === "t" ? "" : " (msg)";
  out(
    `| ${LABELS[variant]} | ${fmt(f.mbPerSecond, 1)} | ${fmt(f.quietP50, 1)} / ${fmt(f.quietP95, 1)} | ${fmt(f.floodP50, 1)} / ${fmt(f.floodP95, 1)}${floodHow} | ${fmt(f.processCores, 2)} | ${fmt(f.yesCores, 2)} | ${fmt(f.machineBusyShare * 100, 0)}% | ${fmt(f.otherCores, 2)} |`,
  );
}
out("");

const base = figures.get("a") as VariantFigures;
const verdicts = (["b", "c"] as const).map((variant) => {
  const f = figures.get(variant) as VariantFigures;
  const throughput = gain(f.mbPerSecond, base.mbPerSecond, true);
  const latency = gain(f.quietP95, base.quietP95, false);
  const beats = throughput > 0.1 && latency > -0.1 || latency > 0.1 && throughput > -0.1;
  return { variant, beats, text: `(${variant}) parses ${fmt(f.mbPerSecond / base.mbPerSecond, 2)}x (a)'s MB/s with a quiet p95 ${fmt(f.quietP95 / base.quietP95, 2)}x (a)'s` };
});
const winners = verdicts.filter((v) => v.beats).map((v) => `(${v.variant})`);
out(
  `verdict: ${verdicts.map((v) => v.text).join("; ")} -> ${winners.length === 0 ? "no worker variant gains more than 10% on throughput or quiet p95 without losing 10% on the other: keep parsing on the main thread" : `${winners.join(" and ")} gain more than 10% (throughput or quiet p95) without losing 10% on the other`}`,
);
const agentPath = figures.get("t") as VariantFigures;
out(
  `the agent's path (t): ${fmt(agentPath.mbPerSecond, 1)} MB/s received, quiet p95 ${fmt(agentPath.quietP95, 1)} ms; ` +
    `against (c): ${fmt(agentPath.mbPerSecond / (figures.get("c") as VariantFigures).mbPerSecond, 2)}x the MB/s, ${fmt(agentPath.quietP95 / (figures.get("c") as VariantFigures).quietP95, 2)}x the quiet p95`,
);
