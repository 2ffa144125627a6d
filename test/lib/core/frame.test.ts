import { test } from "node:test";
import assert from "node:assert/strict";
import { FrameDecoder, FrameError, encodeFrame } from "../../../lib/core/frame.ts";

test("frames round-trip when split at every byte", () => {
  const frames = [encodeFrame(1, new TextEncoder().encode("hello")), encodeFrame(2), encodeFrame(255, new Uint8Array(1000).fill(7))];
  const wire = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    wire.set(f, at);
    at += f.length;
  }
  const decoder = new FrameDecoder(4096);
  const got = [];
  for (let i = 0; i < wire.length; i++) got.push(...decoder.push(wire.subarray(i, i + 1)));
  decoder.end();
  assert.deepEqual(got.map((f) => [f.tag, f.body.length]), [[1, 5], [2, 0], [255, 1000]]);
  assert.equal(new TextDecoder().decode(got[0]?.body), "hello");
});

test("an oversized length is refused before its payload arrives", () => {
  const decoder = new FrameDecoder(16);
  const head = new Uint8Array([0, 0, 0, 17]);
  assert.throws(() => decoder.push(head), (e: unknown) => e instanceof FrameError && e.code === "oversized");
});

test("limit edges: max-1, max accepted; max+1 refused", () => {
  for (const size of [15, 16]) {
    const decoder = new FrameDecoder(16);
    assert.equal(decoder.push(encodeFrame(9, new Uint8Array(size - 1))).length, 1);
  }
  assert.throws(() => new FrameDecoder(16).push(encodeFrame(9, new Uint8Array(16))), FrameError);
});

test("a zero length and a truncated stream are protocol errors", () => {
  assert.throws(() => new FrameDecoder(16).push(new Uint8Array(4)), (e: unknown) => e instanceof FrameError && e.code === "empty");
  const decoder = new FrameDecoder(16);
  decoder.push(encodeFrame(3, new Uint8Array(4)).subarray(0, 6));
  assert.throws(() => decoder.end(), (e: unknown) => e instanceof FrameError && e.code === "truncated");
});

test("a large frame split anywhere decodes whole, with small frames around it; its declared size is reserved from its first bytes", () => {
  const big = new Uint8Array(300 * 1024).map((_, i) => (i * 7) % 251);
  const stream = new Uint8Array([...encodeFrame(1, new Uint8Array([1, 2])), ...encodeFrame(2, big), ...encodeFrame(1, new Uint8Array([3]))]);
  for (const cut of [1, 3, 4, 5, 7, 1000, 65_536, 200_000]) {
    const decoder = new FrameDecoder(1024 * 1024);
    const frames = [];
    let reservedSeen = 0;
    for (let at = 0; at < stream.length; at += cut) {
      frames.push(...decoder.push(stream.subarray(at, Math.min(stream.length, at + cut))));
      reservedSeen = Math.max(reservedSeen, decoder.reservedBytes);
      assert.ok(decoder.reservedBytes >= decoder.pendingBytes, `cut ${cut}: reserved covers what is held`);
    }
    decoder.end();
    assert.deepEqual(frames.map((f) => [f.tag, f.body.length]), [[1, 2], [2, big.length], [1, 1]], `cut ${cut}`);
    assert.deepEqual(frames[1]?.body, big, `cut ${cut}: the large body is byte-exact`);
    assert.equal(decoder.pendingBytes, 0);
    assert.equal(decoder.reservedBytes, 0);
    if (cut < big.length) assert.equal(reservedSeen, 4 + 1 + big.length, `cut ${cut}: the large frame's whole size was reserved while it came`);
  }
});
