// A store whose middle someone else spilled (the guardian's fast path): the
// head arrives by write(), the end by adoptTail(tail, total), and lost
// ranges are read back from that writer's file once the stream is closed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { RetainedWindow } from "../../../lib/output/retained-window.ts";

const u8 = (b: Uint8Array) => new Uint8Array(b);

test("head by write, end by adoptTail: accounting as if every byte had been written", () => {
  const stream = u8(randomBytes(1000));
  for (const [head, tail] of [[10, 20], [0, 20], [10, 0], [64, 64]] as const) {
    const w = new RetainedWindow(head, tail);
    w.append(stream.subarray(0, head));
    w.adoptTail(stream.subarray(stream.length - tail), stream.length);
    const snap = w.snapshot();
    assert.equal(snap.bytes, 1000);
    assert.deepEqual(snap.head, stream.subarray(0, head));
    assert.deepEqual(snap.tail, stream.subarray(1000 - tail));
    assert.equal(snap.elided, 1000 - head - tail);
    assert.deepEqual(w.read(head, 5, true, null), { kind: "lost", offset: head, retainedFrom: 1000 - tail, spill: null });
  }
});

test("a tail overlapping what the window holds is not counted twice (short streams)", () => {
  for (let n = 0; n <= 30; n++) {
    const stream = u8(randomBytes(n));
    const w = new RetainedWindow(10, 20);
    w.append(stream.subarray(0, Math.min(10, n))); // the head frames
    w.adoptTail(stream.subarray(Math.max(0, n - 20)), n); // the last min(n, 20) bytes
    const snap = w.snapshot();
    assert.equal(snap.bytes, n, `n=${n}`);
    assert.equal(snap.elided, 0, `n=${n}`);
    assert.deepEqual(new Uint8Array([...snap.head, ...snap.tail]), stream, `n=${n}: head+tail is the stream`);
  }
});

test("a gap before the head filled leaves the head short and never appends to it again", () => {
  const w = new RetainedWindow(10, 4);
  w.append(new Uint8Array([1, 2, 3]));
  w.adoptTail(new Uint8Array([7, 8]), 50);
  const snap = w.snapshot();
  assert.deepEqual(snap.head, new Uint8Array([1, 2, 3]));
  assert.deepEqual(snap.tail, new Uint8Array([7, 8]));
  assert.equal(snap.elided, 45);
  assert.throws(() => w.adoptTail(new Uint8Array(0), 49), RangeError, "a stream does not shrink");
  assert.throws(() => w.adoptTail(new Uint8Array(60), 59), RangeError);
});

test("an external spill is neither created nor truncated, and serves lost ranges after close", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-output-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, "spill");
  const stream = u8(randomBytes(100_000));
  const store = await BoundedStore.open({ headBytes: 100, tailBytes: 1000, spillPath: file, externalSpill: true });
  assert.equal(store.spillPath, file);
  assert.ok(store.spillIsExternal && store.headBytes === 100 && store.tailBytes === 1000);
  store.write(stream.subarray(0, 100));
  writeFileSync(file, stream); // the other writer (the guardian) did this
  store.adoptTail(stream.subarray(99_000), 100_000);
  assert.deepEqual(await store.readThrough(500, 10), { kind: "lost", offset: 500, retainedFrom: 99_000, spill: file });
  await store.close();
  const r = await store.readThrough(500, 200_000);
  assert.ok(r.kind === "data" && r.nextOffset === 99_000);
  if (r.kind === "data") assert.deepEqual(r.bytes, stream.subarray(500, 99_000));
  assert.deepEqual(readFileSync(file), Buffer.from(stream), "the store never wrote to it");
  rmSync(file);
  assert.equal((await store.readThrough(500, 10)).kind, "lost", "a vanished file is a lost range, not an error");
  await assert.rejects(BoundedStore.open({ headBytes: 1, tailBytes: 1, externalSpill: true }), /needs a spillPath/);
});

test("lines of a middle someone else spilled are counted from the file (wc -l, or here when the size differs)", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-ext-lines-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const text = Array.from({ length: 5000 }, (_, i) => `line ${i}${i % 7 === 0 ? "\r" : ""}\n`).join("") + "no newline at the end";
  const stream = new TextEncoder().encode(text);
  for (const [label, fileBytes] of [["wc", stream], ["fallback", new Uint8Array([...stream, 0x0a, 0x0a])]] as const) {
    for (const [head, tail] of [[100, 200], [0, 50], [3000, 10]] as const) {
      const file = path.join(dir, `${label}-${head}-${tail}`);
      writeFileSync(file, fileBytes);
      const store = await BoundedStore.open({ headBytes: head, tailBytes: tail, spillPath: file, externalSpill: true });
      store.write(stream.subarray(0, head));
      store.adoptTail(stream.subarray(stream.length - tail), stream.length);
      await store.close();
      const snap = store.snapshot();
      assert.equal(snap.lines, 5001, `${label} ${head}/${tail}`);
      assert.equal(snap.lineFeeds, 5000, `${label} ${head}/${tail}`);
      const before = stream[stream.length - tail - 1];
      assert.equal(snap.tailAtLineStart, before === 0x0a, `${label} ${head}/${tail}: tail start`);
    }
  }
});

// A tail adopted after a gap becomes the window's ring itself (no copy of a
// large tail at the moment the stream ends): every reading of it must be
// what a copy would give, and appends after it must still keep the window.
test("an adopted tail kept as the ring: snapshot, reads, last bytes and later appends as with a copy", () => {
  const stream = Uint8Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? 0x0a : 65 + (i % 26)));
  for (const tailLength of [1, 299, 300]) {
    const w = new RetainedWindow(100, 300);
    w.append(stream.subarray(0, 150));
    const tail = stream.slice(stream.length - tailLength);
    w.adoptTail(tail, stream.length, stream.subarray(150, stream.length - tailLength).filter((b) => b === 0x0a).length, stream[stream.length - tailLength - 1]);
    const snap = w.snapshot();
    assert.deepEqual(snap.tail, stream.subarray(stream.length - tailLength), `${tailLength}: tail`);
    assert.equal(snap.bytes, stream.length);
    assert.equal(snap.lineFeeds, stream.filter((b) => b === 0x0a).length, `${tailLength}: line feeds`);
    assert.deepEqual(w.lastBytes(5), stream.subarray(stream.length - Math.min(5, tailLength)));
    const read = w.read(stream.length - tailLength, 1000, true, null);
    assert.deepEqual(read.kind === "data" ? read.bytes : read.kind, stream.subarray(stream.length - tailLength));
    // Appending after the adoption (not what collect does, but the window allows it) keeps the last 300 bytes.
    const more = Uint8Array.from({ length: 450 }, (_, i) => 48 + (i % 10));
    w.append(more.subarray(0, 200));
    w.append(more.subarray(200));
    const whole = new Uint8Array([...stream, ...more]);
    assert.deepEqual(w.snapshot().tail, whole.subarray(whole.length - 300), `${tailLength}: tail after appends`);
  }
});

test("a closed store's snapshot is views of its window, an open one's copies", async () => {
  const store = await BoundedStore.open({ headBytes: 4, tailBytes: 8 });
  store.write(new TextEncoder().encode("0123456789abcdef"));
  const open = store.snapshot();
  open.tail[0] = 0x21; // a copy: the store does not change
  assert.equal(new TextDecoder().decode(store.snapshot().tail), "89abcdef");
  await store.close();
  const closed = store.snapshot();
  assert.equal(new TextDecoder().decode(closed.head), "0123");
  assert.equal(new TextDecoder().decode(closed.tail), "89abcdef");
  assert.ok(closed.tail.buffer === store.snapshot().tail.buffer, "the same bytes, not a copy each time");
});
