// The guardian's bounded capture (native/capture.c) at the protocol level,
// on the sanitizer build: the head framed, the last tail bytes, the total,
// the line feeds and the byte before the tail, at the limits -1/0/+1, with
// a ring that wraps many times and one larger than a read; progress events
// while output flows; with a tee (collect --live), every byte also reaches
// the tee's descriptor and the picture is the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestContext } from "node:test";
import { buildGuardian, collectOutput, startGuardian, tempDir } from "../../support/guardian-fixture.ts";
import type { GuardianLaunch, ProgressEvent, SpilledEvent } from "../../../lib/supervise/guardian/protocol.ts";

const bin = buildGuardian();

interface Captured {
  head: Buffer;
  tail: Buffer;
  spilled: SpilledEvent;
  progress: ProgressEvent[];
}

async function capture(t: TestContext, data: Buffer, headBytes: number, tailBytes: number, extra: Partial<GuardianLaunch> = {}, dir = tempDir(t)): Promise<Captured> {
  const file = path.join(dir, "in");
  writeFileSync(file, data);
  const g = startGuardian(t, { argv: ["cat", file], mode: "pipe", stdout: "pipe", stderr: "pipe", captureStdout: true, headBytes, tailBytes, ...extra }, bin.asan, dir);
  if (extra.teeStdout !== undefined) closeSync(extra.teeStdout); // the guardian has its own copy
  const out = collectOutput(g);
  const tail: Buffer[] = [];
  const progress: ProgressEvent[] = [];
  g.on("tail", (stream, bytes) => stream === 1 && tail.push(Buffer.from(bytes)));
  g.on("progress", (e) => progress.push(e));
  const spilled = new Promise<SpilledEvent>((resolve) => g.on("spilled", (e) => e.stream === 1 && resolve(e)));
  const eof = new Promise<void>((resolve) => g.on("eof", (stream) => stream === 1 && resolve()));
  await g.started;
  const [e] = await Promise.all([spilled, eof, g.exited]);
  return { head: out.bytes(1), tail: Buffer.concat(tail), spilled: e, progress };
}

const lineFeeds = (b: Buffer) => b.reduce((n, x) => n + (x === 0x0a ? 1 : 0), 0);

function check(data: Buffer, headBytes: number, tailBytes: number, got: Captured, label: string): void {
  const head = data.subarray(0, Math.min(headBytes, data.length));
  const afterHead = data.length - head.length;
  const tailLength = Math.min(tailBytes, afterHead);
  assert.deepEqual(got.head, head, `${label}: head`);
  assert.deepEqual(got.tail, data.subarray(data.length - tailLength), `${label}: tail`);
  assert.equal(got.spilled.total, data.length, `${label}: total`);
  assert.equal(got.spilled.captured, true, `${label}: captured`);
  assert.equal(got.spilled.error, null, `${label}: error`);
  assert.equal(got.spilled.lineFeeds, lineFeeds(data), `${label}: line feeds`);
  const before = afterHead > tailLength ? data[data.length - tailLength - 1] : -1;
  assert.equal(got.spilled.beforeTail, before, `${label}: the byte before the tail`);
}

test("capture: head, tail, total, line feeds and the byte before the tail at the limits -1/0/+1", { timeout: 300_000 }, async (t) => {
  const H = 100;
  const T = 300;
  // Line feeds often enough to count, random bytes otherwise.
  const data = Buffer.from(randomBytes(H + T + 10).map((b) => (b % 5 === 0 ? 0x0a : b)));
  for (const size of [0, 1, H - 1, H, H + 1, H + T - 1, H + T, H + T + 1, H + T + 2]) {
    const input = data.subarray(0, size);
    check(input, H, T, await capture(t, input, H, T), `${size} bytes`);
  }
});

test("capture: a small ring that wraps many times, and a tail larger than one read", { timeout: 300_000 }, async (t) => {
  const data = Buffer.from(randomBytes(5 * 1024 * 1024 + 12345).map((b) => (b % 7 === 0 ? 0x0a : b)));
  check(data, 1000, 3000, await capture(t, data, 1000, 3000), "tail 3000");
  const bigTail = 1024 * 1024 + 512 * 1024;
  check(data, 65536, bigTail, await capture(t, data, 65536, bigTail), "tail 1.5 MiB");
  check(data, 0, 0, await capture(t, data, 0, 0), "no head, no tail");
});

test("capture: progress events count what went by, and the last one comes while the stream is quiet", { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "in");
  const data = Buffer.from(randomBytes(3 * 1024 * 1024).map((b) => (b % 3 === 0 ? 0x0a : b)));
  writeFileSync(file, data);
  // The stream stays open after the data: only a progress event can say how far it got.
  const g = startGuardian(t, { argv: ["sh", "-c", 'cat "$1"; exec sleep 1000', "sh", file], mode: "pipe", stdout: "pipe", stderr: "pipe", captureStdout: true, headBytes: 1000, tailBytes: 5000 }, bin.asan, dir);
  const progress: ProgressEvent[] = [];
  const all = new Promise<void>((resolve) => g.on("progress", (e) => {
    progress.push(e);
    if (e.total === data.length) resolve();
  }));
  await g.started;
  await all; // the test's timeout is the deadline
  for (const p of progress) {
    assert.equal(p.stream, 1);
    assert.ok(p.total > 0 && p.total <= data.length, `progress total ${p.total}`);
    assert.equal(p.lineFeeds, lineFeeds(data.subarray(0, p.total)), "progress line feeds match the bytes so far");
    assert.deepEqual(Buffer.from(p.last), data.subarray(p.total - p.last.length, p.total), "progress last bytes end the stream so far");
  }
  assert.equal(progress[progress.length - 1]?.last.length, 4096, "the last 4 KiB to quote a line from");
});

test("capture with a spill file: spliced, and the line feeds counted from the page cache", { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "in");
  const spill = path.join(dir, "spill");
  // Past the 8 MiB counting window, so the count runs both during the stream and at its end.
  const data = Buffer.from(randomBytes(9 * 1024 * 1024 + 4321).map((b) => (b % 11 === 0 ? 0x0a : b)));
  writeFileSync(file, data);
  const g = startGuardian(t, { argv: ["cat", file], mode: "pipe", stdout: "pipe", stderr: "pipe", captureStdout: true, spillStdout: spill, headBytes: 1000, tailBytes: 3000 }, bin.asan, dir);
  const out = collectOutput(g);
  const tail: Buffer[] = [];
  g.on("tail", (stream, bytes) => stream === 1 && tail.push(Buffer.from(bytes)));
  const spilled = new Promise<SpilledEvent>((resolve) => g.on("spilled", (e) => e.stream === 1 && resolve(e)));
  await g.started;
  const [e] = await Promise.all([spilled, g.exited]);
  assert.equal(e.error, null);
  assert.equal(e.total, data.length);
  assert.equal(e.lineFeeds, lineFeeds(data), "line feeds of the whole stream");
  assert.deepEqual(out.bytes(1), data.subarray(0, 1000), "head");
  assert.deepEqual(Buffer.concat(tail), data.subarray(data.length - 3000), "tail");
  assert.ok(readFileSync(spill).equals(data), "the spill file is the stream");
});

test("capture with a tee (collect --live): every byte reaches the tee in order, and head, tail and counts are as without", { timeout: 300_000 }, async (t) => {
  const H = 100;
  const T = 300;
  const small = Buffer.from(randomBytes(H + T + 10).map((b) => (b % 5 === 0 ? 0x0a : b)));
  // A ring that wraps many times (the tee writes from the ring), and one larger than a read.
  const big = Buffer.from(randomBytes(5 * 1024 * 1024 + 12345).map((b) => (b % 7 === 0 ? 0x0a : b)));
  const cases: [Buffer, number, number][] = [
    ...[0, H - 1, H, H + 1, H + T, H + T + 1].map((n): [Buffer, number, number] => [small.subarray(0, n), H, T]),
    [big, 1000, 3000],
    [big, 65536, 1024 * 1024 + 512 * 1024],
    [big, 0, 0],
  ];
  for (const [data, head, tail] of cases) {
    const dir = tempDir(t);
    const teeFile = path.join(dir, "tee");
    const got = await capture(t, data, head, tail, { teeStdout: openSync(teeFile, "w") }, dir);
    const label = `${data.length} bytes, head ${head}, tail ${tail}`;
    check(data, head, tail, got, label);
    assert.ok(readFileSync(teeFile).equals(data), `${label}: the tee got the stream`);
  }
});

test("capture with a tee and a spill file: read instead of spliced, both get the stream, lines counted", { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t);
  const spill = path.join(dir, "spill");
  const teeFile = path.join(dir, "tee");
  const data = Buffer.from(randomBytes(9 * 1024 * 1024 + 4321).map((b) => (b % 11 === 0 ? 0x0a : b)));
  const file = path.join(dir, "in");
  writeFileSync(file, data);
  const tee = openSync(teeFile, "w");
  const g = startGuardian(t, { argv: ["cat", file], mode: "pipe", stdout: "pipe", stderr: "pipe", captureStdout: true, spillStdout: spill, headBytes: 1000, tailBytes: 3000, teeStdout: tee }, bin.asan, dir);
  closeSync(tee);
  const out = collectOutput(g);
  const tail: Buffer[] = [];
  g.on("tail", (stream, bytes) => stream === 1 && tail.push(Buffer.from(bytes)));
  const spilled = new Promise<SpilledEvent>((resolve) => g.on("spilled", (e) => e.stream === 1 && resolve(e)));
  await g.started;
  const [e] = await Promise.all([spilled, g.exited]);
  assert.equal(e.error, null);
  assert.equal(e.total, data.length);
  assert.equal(e.lineFeeds, lineFeeds(data), "line feeds of the whole stream");
  assert.deepEqual(out.bytes(1), data.subarray(0, 1000), "head");
  assert.deepEqual(Buffer.concat(tail), data.subarray(data.length - 3000), "tail");
  assert.ok(readFileSync(spill).equals(data), "the spill file is the stream");
  assert.ok(readFileSync(teeFile).equals(data), "and so is what the tee got");
});

test("--tee-stdout without --capture-stdout is a usage error (exit 2), not a silent copy", (t) => {
  const dir = tempDir(t);
  const r = spawnSync(bin.asan, ["--socket", path.join(dir, "g.sock"), "--tee-stdout", "1", "--", "true"], {
    env: { ...process.env, CORRAL_GUARDIAN_TOKEN: "0123456789abcdef0123" },
    encoding: "utf8",
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--tee-stdout\/--tee-stderr need --capture-stdout\/--capture-stderr/);
});

test("a spill file that already holds more is emptied first (truncated only when not empty)", { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t);
  const spill = path.join(dir, "spill");
  writeFileSync(spill, Buffer.alloc(200_000, 0x78)); // longer than what follows
  const data = Buffer.from(randomBytes(100_000).map((b) => (b % 9 === 0 ? 0x0a : b)));
  const file = path.join(dir, "in");
  writeFileSync(file, data);
  const g = startGuardian(t, { argv: ["cat", file], mode: "pipe", stdout: "pipe", stderr: "pipe", captureStdout: true, spillStdout: spill, headBytes: 1000, tailBytes: 3000 }, bin.asan, dir);
  const spilled = new Promise<SpilledEvent>((resolve) => g.on("spilled", (e) => e.stream === 1 && resolve(e)));
  await g.started;
  const [e] = await Promise.all([spilled, g.exited]);
  assert.equal(e.error, null);
  assert.equal(e.total, data.length);
  assert.ok(readFileSync(spill).equals(data), "the spill file is the stream and nothing of the old file");
});
