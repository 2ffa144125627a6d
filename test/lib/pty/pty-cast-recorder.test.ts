// The asciicast writer alone: header and event shapes, UTF-8 split across
// chunks, input only when asked, and the size bound at its edges (the file
// never passes --record-max, and ends with the marker when it stops).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CastRecorder } from "../../../lib/pty/cast-recorder.ts";

const dir = mkdtempSync(path.join(tmpdir(), "corral-cast-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const header = { cols: 80, rows: 24, term: "xterm-256color", title: "demo" };

function lines(file: string): unknown[] {
  return readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

test("header, output, resize; a character split between chunks is one character; no input unless asked", async () => {
  const file = path.join(dir, "basic.cast");
  const recorder = await CastRecorder.create({ path: file });
  recorder.begin(header);
  const e = new TextEncoder().encode("é\x1b[1m");
  recorder.output(e.subarray(0, 1));
  recorder.output(e.subarray(1));
  recorder.input("secret\r");
  recorder.resize(100, 30);
  await recorder.end();
  const [head, ...events] = lines(file) as [Record<string, unknown>, ...[number, string, string][]];
  assert.deepEqual({ ...head, timestamp: 0 }, { version: 2, width: 80, height: 24, timestamp: 0, env: { TERM: "xterm-256color" }, title: "demo" });
  assert.deepEqual(events.map(([, code, data]) => [code, data]), [["o", "é\x1b[1m"], ["r", "100x30"]]);
  assert.equal(recorder.status.active, false);
  assert.equal(recorder.status.stopped, null);
  assert.equal(recorder.status.bytes, statSync(file).size);
});

test("input events with input: true", async () => {
  const file = path.join(dir, "input.cast");
  const recorder = await CastRecorder.create({ path: file, input: true });
  recorder.begin(header);
  recorder.input(new TextEncoder().encode("ls\r"));
  await recorder.end();
  assert.deepEqual((lines(file).slice(1) as [number, string, string][]).map(([, c, d]) => [c, d]), [["i", "ls\r"]]);
});

for (const maxBytes of [1024, 1025, 1500, 4096, 4097]) {
  test(`--record-max ${maxBytes}: never passed, filled, ended by the marker`, async () => {
    const file = path.join(dir, `max-${maxBytes}.cast`);
    const recorder = await CastRecorder.create({ path: file, maxBytes });
    recorder.begin(header);
    for (let i = 0; i < 200; i++) recorder.output(new TextEncoder().encode(`line ${i} "quoted" \x1b[31m\n`));
    recorder.output(new TextEncoder().encode("after the stop"));
    await recorder.end();
    const size = statSync(file).size;
    assert.ok(size <= maxBytes, `${size} > ${maxBytes}`);
    assert.ok(size > maxBytes - 260, `${size} leaves too much room below ${maxBytes}`);
    const events = lines(file).slice(1) as [number, string, string][];
    assert.equal(events.at(-1)?.[1], "m");
    assert.doesNotMatch(readFileSync(file, "utf8"), /after the stop/);
    assert.equal(recorder.status.stopped, "max");
  });
}

test("a recording that stays under its bound has no marker", async () => {
  const file = path.join(dir, "under.cast");
  const recorder = await CastRecorder.create({ path: file, maxBytes: 4096 });
  recorder.begin(header);
  recorder.output(new TextEncoder().encode("short"));
  await recorder.end();
  assert.deepEqual((lines(file).slice(1) as [number, string, string][]).map(([, c]) => c), ["o"]);
  assert.equal(recorder.status.stopped, null);
});
