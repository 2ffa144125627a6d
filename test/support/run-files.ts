// One stage of the suite (started by run-suite.ts): Node's test runner on the
// given files, N at a time, started IN THE ORDER GIVEN. (`node --test a b`
// sorts its files by name, so run-suite's longest-first order would be lost;
// the runner's own run() keeps it.) Prints the spec report and the slowest
// files (file-durations.ts) on stdout, and exits 1 when a test failed.
// Usage: run-files.ts --concurrency N FILE...
import { PassThrough } from "node:stream";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import path from "node:path";
import fileDurations from "./file-durations.ts";

const args = process.argv.slice(2);
const concurrency = Number(args[args.indexOf("--concurrency") + 1]);
const files = args.filter((_, i) => i !== args.indexOf("--concurrency") && i !== args.indexOf("--concurrency") + 1);

const events = run({ files: files.map((f) => path.resolve(f)), concurrency });
events.on("test:fail", () => {
  process.exitCode = 1;
});
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
