// One stage of the suite (started by run-suite.ts): Node's test runner on the
// given files, each file its own runner (run() of one file, in a process of
// its own), started IN THE ORDER GIVEN (`node --test a b` sorts its files by
// name, so run-suite's longest-first order would be lost). Prints the spec
// report, each file's whole as it ends, then the totals and the slowest
// files (file-durations.ts) on stdout, and exits 1 when a test failed.
// How many files run at once: `--concurrency N`, N; `--concurrency auto`,
// by the machine (file-scheduler.ts): most files spend much of their time
// waiting on programs, so on an idle machine more run at once than there are
// cores, and on a machine others load, no more than cores + 2.
// With --progress-fd FD, writes `start FILE` and `end FILE` lines to FD as
// each file's process starts and ends, so run-suite can tell when the stage
// is down to its last files.
// Each file has a deadline (--file-timeout SECONDS, else
// $CORRAL_TEST_FILE_TIMEOUT, else FILE_DEADLINE_S): a file that hangs is
// stopped and fails under its own name, and the suite goes on (a hang once
// held the whole suite for ten minutes).
// Usage: run-files.ts --concurrency N|auto [--progress-fd FD] [--file-timeout S] FILE...
import { writeSync } from "node:fs";
import { PassThrough } from "node:stream";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import path from "node:path";
import fileDurations from "./file-durations.ts";
import { FileScheduler, type Concurrency } from "./file-scheduler.ts";

const args = process.argv.slice(2);
/** The value of `--name VALUE`, taken out of args. */
function option(name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  return args.splice(at, 2)[1];
}
/** Seconds a test file may run: the longest (a script shard) takes about 4 minutes alone on a loaded machine. */
const FILE_DEADLINE_S = 600;
const concurrencyArg = option("--concurrency") ?? "auto";
const concurrency: Concurrency = concurrencyArg === "auto" ? "auto" : Number(concurrencyArg);
if (concurrency !== "auto" && !(Number.isInteger(concurrency) && concurrency >= 1)) {
  throw new Error(`--concurrency ${concurrencyArg}: give a whole number of files, 1 or more, or auto`);
}
const progressFd = option("--progress-fd");
const deadline = Number(option("--file-timeout") ?? process.env.CORRAL_TEST_FILE_TIMEOUT ?? FILE_DEADLINE_S);
if (!(deadline > 0)) throw new Error(`--file-timeout ${deadline}: give a number of seconds above 0`);
const files = args.map((f) => path.resolve(f));
const stageStarted = performance.now();

/** One event of Node's test runner, as far as this stage reads it. */
interface RunnerEvent {
  readonly type: string;
  readonly data: { file?: string; nesting: number; message?: string };
}

// Both reporters read every event, side by side (each its own copy of the
// stream; one left unread would hold the other back).
const forSpec = new PassThrough({ objectMode: true });
const forDurations = new PassThrough({ objectMode: true });
const specDone = new Promise<void>((resolve) => {
  const report = forSpec.pipe(new spec());
  report.on("end", resolve);
  report.pipe(process.stdout, { end: false });
});
const slowest: string[] = [];
const durationsDone = (async () => {
  for await (const line of fileDurations(forDurations)) slowest.push(line);
})();
const emit = (event: RunnerEvent) => {
  forSpec.write(event);
  forDurations.write(event);
};

// Each run() reports its own totals (a plan and `tests N`, `pass N`... with
// no file): they are summed here and reported once, for the whole stage.
const TOTALS = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo"] as const;
const totals = new Map<string, number>(TOTALS.map((name) => [name, 0]));

async function runFile(file: string): Promise<void> {
  if (progressFd !== undefined) writeSync(Number(progressFd), `start ${file}\n`);
  const kept: RunnerEvent[] = [];
  for await (const event of run({ files: [file], concurrency: 1, timeout: deadline * 1000 }) as AsyncIterable<RunnerEvent>) {
    if (event.type === "test:fail") process.exitCode = 1;
    if (event.data.file === undefined && event.data.nesting === 0) {
      if (event.type === "test:plan") continue;
      const total = event.type === "test:diagnostic" ? /^(\w+) (\d+)$/.exec(event.data.message ?? "") : null;
      if (total !== null && totals.has(total[1]!)) {
        totals.set(total[1]!, totals.get(total[1]!)! + Number(total[2]));
        continue;
      }
      if (event.type === "test:diagnostic" && /^duration_ms /.test(event.data.message ?? "")) continue;
    }
    kept.push(event);
  }
  if (progressFd !== undefined) writeSync(Number(progressFd), `end ${file}\n`);
  for (const event of kept) emit(event);
}

// A runner adds its process listeners (uncaughtException...) while it runs.
process.setMaxListeners(64);
const scheduler = new FileScheduler(concurrency);
await scheduler.run(files, runFile);
for (const name of TOTALS) emit({ type: "test:diagnostic", data: { nesting: 0, message: `${name} ${totals.get(name)}` } });
emit({ type: "test:diagnostic", data: { nesting: 0, message: `duration_ms ${performance.now() - stageStarted}` } });
forSpec.end();
forDurations.end();
await Promise.all([specDone, durationsDone]);
process.stdout.write(slowest.join(""));
process.stdout.write(`# files at once: ${scheduler.mean.toFixed(1)} on average, ${scheduler.peak} at most (${concurrency === "auto" ? `by idle CPU, ${scheduler.floor} to ${scheduler.ceiling}` : "fixed"})\n`);
