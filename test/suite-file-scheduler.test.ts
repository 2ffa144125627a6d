// The suite's scheduler (test/support/file-scheduler.ts) decides how many
// test files run at once; a wrong decision either idles CI or overloads it,
// and neither shows as a failing test. Here its decisions are driven by a
// made-up machine (the idle cores it reads) and made-up files that end when
// the test says, so no check depends on this machine's load or speed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FileScheduler } from "./support/file-scheduler.ts";

/** Files that stay running until released; records how many ran at once. */
function heldFiles(count: number) {
  const names = Array.from({ length: count }, (_, i) => `file-${i}`);
  const started: string[] = [];
  let running = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const each = (name: string) => {
    started.push(name);
    running += 1;
    peak = Math.max(peak, running);
    return new Promise<void>((resolve) => releases.push(resolve)).then(() => {
      running -= 1;
    });
  };
  const releaseAll = () => releases.splice(0).forEach((release) => release());
  return { names, started, each, releaseAll, peak: () => peak, running: () => running };
}

const pace = { tickMs: 5, startSpacingMs: 10, cores: 2 } as const;

/** Polls `ready`; throws after 60 s (a decision that never comes). */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
  assert.ok(ready(), `never: ${what}`);
}

/** Releases the files as they come until all ran; the scheduler's run() (and its timer) then ends. */
async function drain(files: ReturnType<typeof heldFiles>, done: Promise<void>): Promise<void> {
  let ended = false;
  void done.then(() => (ended = true));
  while (!ended) {
    files.releaseAll();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

test("auto on a busy machine: cores + 2 at once, no more, each file once and in order", async (t) => {
  const files = heldFiles(12);
  let reads = 0;
  const scheduler = new FileScheduler("auto", { ...pace, idleCores: () => (reads++, 0) });
  const done = scheduler.run(files.names, files.each);
  t.after(() => drain(files, done));
  await until(() => reads >= 20, "twenty reads of a machine with nothing idle");
  assert.equal(files.running(), 4, "cores + 2 running");
  await drain(files, done);
  assert.equal(files.peak(), 4);
  assert.equal(scheduler.peak, 4);
  assert.deepEqual(files.started, files.names);
});

test("auto on an idle machine: one more file at a time up to 4 per core, never beyond", async (t) => {
  const files = heldFiles(12);
  let reads = 0;
  const scheduler = new FileScheduler("auto", { ...pace, idleCores: () => (reads++, 2) });
  const done = scheduler.run(files.names, files.each);
  t.after(() => drain(files, done));
  await until(() => files.running() >= 8, "8 files running");
  const readsThen = reads;
  await until(() => reads >= readsThen + 20, "twenty more reads of an idle machine");
  assert.equal(files.running(), 8, "no more than 4 per core");
  await drain(files, done);
  assert.equal(files.peak(), 8);
  assert.equal(scheduler.peak, 8);
  assert.deepEqual(files.started, files.names);
});

test("auto where /proc/stat cannot be read: cores + 2 at once", async (t) => {
  const files = heldFiles(6);
  let reads = 0;
  const done = new FileScheduler("auto", { ...pace, idleCores: () => (reads++, undefined) }).run(files.names, files.each);
  t.after(() => drain(files, done));
  await until(() => reads >= 20, "twenty reads");
  assert.equal(files.running(), 4);
  await drain(files, done);
  assert.equal(files.peak(), 4);
});

test("a fixed number: exactly that many at once, whatever is idle", async (t) => {
  const files = heldFiles(7);
  let reads = 0;
  const done = new FileScheduler(2, { ...pace, idleCores: () => (reads++, 2) }).run(files.names, files.each);
  t.after(() => drain(files, done));
  await until(() => reads >= 20, "twenty reads of an idle machine");
  assert.equal(files.running(), 2);
  await drain(files, done);
  assert.equal(files.peak(), 2);
  assert.deepEqual(files.started, files.names);
});
