// Head/tail accounting of the bounded output store at its limits, against a
// reference built from the whole stream, for fixed and random chunkings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { RetainedWindow } from "../../../lib/output/retained-window.ts";

/** Deterministic PRNG (mulberry32) so a failing chunking can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function streamOf(n: number, seed = 1): Uint8Array {
  const rand = prng(seed);
  const out = new Uint8Array(n);
  // One byte in ten a line feed, so line accounting meets line ends everywhere.
  for (let i = 0; i < n; i++) out[i] = rand() < 0.1 ? 0x0a : Math.floor(rand() * 256);
  return out;
}

/** What head and tail must be for `stream` under these limits. */
function expected(stream: Uint8Array, head: number, tail: number) {
  const h = stream.subarray(0, Math.min(head, stream.length));
  const rest = stream.subarray(h.length);
  const t = rest.subarray(Math.max(0, rest.length - tail));
  return { head: h, tail: t, elided: stream.length - h.length - t.length };
}

/**
 * The limits come from the test, never from the window under test: a window
 * that kept the wrong head size would otherwise be held to its own mistake.
 */
function check(window: RetainedWindow, limits: { head: number; tail: number }, stream: Uint8Array, label: string): void {
  assert.equal(window.headBytes, limits.head, `${label}: the window's head limit is the one asked for`);
  assert.equal(window.tailBytes, limits.tail, `${label}: the window's tail limit is the one asked for`);
  const snap = window.snapshot();
  const want = expected(stream, limits.head, limits.tail);
  assert.equal(snap.bytes, stream.length, `${label}: bytes`);
  assert.deepEqual(snap.head, want.head, `${label}: head`);
  assert.deepEqual(snap.tail, want.tail, `${label}: tail`);
  assert.equal(snap.elided, want.elided, `${label}: elided`);
  assert.equal(snap.truncated, want.elided > 0, `${label}: truncated`);
  assert.ok(window.retainedBytes <= limits.head + limits.tail, `${label}: retained`);
  const feeds = stream.filter((b) => b === 0x0a).length;
  const last = stream[stream.length - 1];
  assert.equal(snap.lines, feeds + (last !== undefined && last !== 0x0a ? 1 : 0), `${label}: lines`);
  if (snap.tail.length > 0) {
    const tailStart = stream.length - snap.tail.length;
    assert.equal(snap.tailAtLineStart, tailStart === 0 || stream[tailStart - 1] === 0x0a, `${label}: tailAtLineStart`);
  }
  if (stream.length <= limits.head + limits.tail) {
    assert.deepEqual(new Uint8Array([...snap.head, ...snap.tail]), stream, `${label}: head+tail is the stream`);
  }
}

function feed(window: RetainedWindow, stream: Uint8Array, sizes: Iterable<number>): void {
  let at = 0;
  for (const size of sizes) {
    if (at >= stream.length) break;
    window.append(stream.subarray(at, Math.min(stream.length, at + size)));
    at += size;
  }
  if (at < stream.length) window.append(stream.subarray(at));
}

test("head and tail at limit-1, limit, limit+1, in one chunk and byte by byte", () => {
  const head = 16;
  const tail = 32;
  for (const n of [0, 1, head - 1, head, head + 1, head + tail - 1, head + tail, head + tail + 1, 3 * (head + tail)]) {
    const stream = streamOf(n, n + 7);
    const whole = new RetainedWindow(head, tail);
    feed(whole, stream, [n || 1]);
    check(whole, { head, tail }, stream, `n=${n} one chunk`);
    const bytewise = new RetainedWindow(head, tail);
    feed(bytewise, stream, Array.from({ length: n }, () => 1));
    check(bytewise, { head, tail }, stream, `n=${n} bytewise`);
  }
});

test("a chunk crossing the head/tail boundary at every split point", () => {
  const head = 8;
  const tail = 8;
  for (const n of [head + tail - 1, head + tail, head + tail + 1, head + 2 * tail + 3]) {
    const stream = streamOf(n, n);
    for (let cut = 0; cut <= n; cut++) {
      const w = new RetainedWindow(head, tail);
      w.append(stream.subarray(0, cut));
      w.append(stream.subarray(cut));
      check(w, { head, tail }, stream, `n=${n} cut=${cut}`);
    }
  }
});

test("zero head or zero tail", () => {
  const stream = streamOf(100);
  for (const [h, t] of [[0, 10], [10, 0], [0, 0], [0, 100], [100, 0]] as const) {
    const w = new RetainedWindow(h, t);
    feed(w, stream, [7, 13, 1, 50]);
    check(w, { head: h, tail: t }, stream, `head=${h} tail=${t}`);
  }
});

test("random chunkings match the reference (seeded)", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const rand = prng(seed);
    const head = Math.floor(rand() * 200);
    const tail = Math.floor(rand() * 300);
    const n = Math.floor(rand() * 2000);
    const stream = streamOf(n, seed);
    const maxChunk = 2 + Math.floor(rand() * (rand() < 0.3 ? 1000 : 40));
    const sizes = function* () {
      for (;;) yield Math.floor(rand() * maxChunk); // zero-length chunks included
    };
    const w = new RetainedWindow(head, tail);
    feed(w, stream, sizes());
    check(w, { head, tail }, stream, `seed=${seed} head=${head} tail=${tail} n=${n}`);
  }
});

test("tail ring grows lazily and wraps correctly past 64 KiB", () => {
  const tail = 200_000;
  const stream = streamOf(1_000_000, 3);
  const w = new RetainedWindow(1000, tail);
  w.append(stream.subarray(0, 5000));
  assert.ok(w.capacityBytes < 100_000, "small stream, small buffers");
  feed(w, stream.subarray(5000), [65536, 1, 4095, 300_000, 12345]);
  // feed() continued from offset 5000, so compare against the whole stream.
  check(w, { head: 1000, tail }, stream, "big");
  assert.equal(w.capacityBytes, 1000 + tail);
});

test("reads by absolute offset: data in head and tail, lost between, pending and eof at the end", async () => {
  const store = await BoundedStore.open({ headBytes: 10, tailBytes: 20 });
  const stream = streamOf(100, 9);
  assert.deepEqual(store.read(0, 5), { kind: "pending", offset: 0 });
  store.write(stream.subarray(0, 60));
  store.write(stream.subarray(60));
  const r0 = store.read(0, 4);
  assert.equal(r0.kind, "data");
  if (r0.kind === "data") {
    assert.deepEqual(r0.bytes, stream.subarray(0, 4));
    assert.equal(r0.nextOffset, 4);
  }
  const r1 = store.read(4, 1000);
  assert.ok(r1.kind === "data" && r1.nextOffset === 10, "head read stops at the head's end");
  assert.deepEqual(store.read(10, 5), { kind: "lost", offset: 10, retainedFrom: 80, spill: null });
  assert.deepEqual(store.read(79, 5), { kind: "lost", offset: 79, retainedFrom: 80, spill: null });
  const r2 = store.read(80, 1000);
  assert.ok(r2.kind === "data");
  if (r2.kind === "data") {
    assert.deepEqual(r2.bytes, stream.subarray(80));
    assert.equal(r2.nextOffset, 100);
  }
  const r3 = store.read(95, 3);
  assert.ok(r3.kind === "data" && r3.nextOffset === 98);
  assert.deepEqual(store.read(100, 5), { kind: "pending", offset: 100 });
  // Reading never consumes: the same read twice gives the same bytes.
  assert.deepEqual(store.read(85, 5), store.read(85, 5));
  assert.throws(() => store.read(101, 1), RangeError);
  assert.throws(() => store.read(-1, 1), RangeError);
  assert.throws(() => store.read(0, 0), RangeError);
  await store.close();
  assert.deepEqual(store.read(100, 5), { kind: "eof", offset: 100 });
  await store.close(); // idempotent
  assert.throws(() => store.write(new Uint8Array(1)), /write after close/);
});

test("a follower waits for bytes past its offset, or for the close", async () => {
  const store = await BoundedStore.open({ headBytes: 4, tailBytes: 4 });
  const beyond = store.whenBeyond(0);
  let woke = false;
  void beyond.then(() => (woke = true));
  await Promise.resolve();
  assert.equal(woke, false);
  store.write(new Uint8Array([1]));
  await beyond;
  const atEnd = store.whenBeyond(1);
  await store.close();
  await atEnd;
});

test("bad limits are refused", async () => {
  await assert.rejects(BoundedStore.open({ headBytes: -1, tailBytes: 1 }), /headBytes/);
  await assert.rejects(BoundedStore.open({ headBytes: 1, tailBytes: 1.5 }), /tailBytes/);
});
