// One stage of the suite (started by run-suite.ts): Node's test runner on the
// given files, N at a time, started IN THE ORDER GIVEN. (`node --test a b`
// sorts its files by name, so run-suite's longest-first order would be lost;
// the runner's own run() keeps it.) Prints the spec report and the slowest
// files (file-durations.ts) on stdout, and exits 1 when a test failed.
// With --progress-fd FD, writes `start FILE` and `end FILE` lines to FD as
// each file's process starts and ends (the runner reports a file's tests
// only once the files before it are reported; these lines come live), so
// run-suite can tell when the stage is down to its last files.
// Each file has a deadline (--file-timeout SECONDS, else
// $CORRAL_TEST_FILE_TIMEOUT, else FILE_DEADLINE_S): a file that hangs is
// stopped and fails under its own name, and the suite goes on (a hang once
// held the whole suite for ten minutes).
// Usage: run-files.ts --concurrency N [--progress-fd FD] [--file-timeout S] FILE...
import { writeSync } from "node:fs";
import { PassThrough } from "node:stream";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import path from "node:path";
import fileDurations from "./file-durations.ts";

const args = process.argv.slice(2);
/** The value of `--name VALUE`, taken out of args. */
function option(name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  return args.splice(at, 2)[1];
}
/** Seconds a test file may run: the longest (a script shard) takes about 4 minutes alone on a loaded machine. */
const FILE_DEADLINE_S = 600;
const concurrency = Number(option("--concurrency"));
const progressFd = option("--progress-fd");
const deadline = Number(option("--file-timeout") ?? process.env.CORRAL_TEST_FILE_TIMEOUT ?? FILE_DEADLINE_S);
if (!(deadline > 0)) throw new Error(`--file-timeout ${deadline}: give a number of seconds above 0`);
const files = args.map((f) => path.resolve(f));

const events = run({ files, concurrency, timeout: deadline * 1000 });
events.on("test:fail", () => {
  process.exitCode = 1;
});
if (progressFd !== undefined) {
  // A file's own entry in the runner's queue is the test named by its path
  // (Node 20 and later); its dequeue is its start, its complete its end.
  const progress = (what: string) => (data: { name?: string; file?: string; nesting?: number }) => {
    if (data.nesting === 0 && data.file !== undefined && data.name === data.file) {
      writeSync(Number(progressFd), `${what} ${data.file}\n`);
    }
  };
  events.on("test:dequeue", progress("start"));
  events.on("test:complete", progress("end"));
}
// Both reporters read every event, side by side (each its own copy of the
// stream; one left unread would hold the other back).
const forSpec = new PassThrough({ objectMode: true });
const forDurations = new PassThrough({ objectMode: true });
events.pipe(forSpec);
events.pipe(forDurations);
const specDone = new Promise<void>((resolve) => {
  const report = forSpec.pipe(new spec());
  report.on("end", resolve);
  report.pipe(process.stdout, { end: false });
});
const slowest: string[] = [];
const durationsDone = (async () => {
  for await (const line of fileDurations(forDurations)) slowest.push(line);
})();
await Promise.all([specDone, durationsDone]);
process.stdout.write(slowest.join(""));
