// The tail the guardian sends at a captured stream's end, gathered in one
// buffer (lib/supervise/guardian/tail-gather.ts): the bytes in order,
// whatever the frames, and nothing of one end carried into the next.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TailGather } from "../../../lib/supervise/guardian/tail-gather.ts";

const bytes = (n: number, from = 0) => Uint8Array.from({ length: n }, (_, i) => (from + i) % 251);

test("frames of any size come out as one tail, in order, and take() starts anew", () => {
  for (const tailBytes of [0, 10, 1000, 4096]) {
    const gather = new TailGather(tailBytes);
    const whole = bytes(1000);
    for (const [from, to] of [[0, 1], [1, 64], [64, 600], [600, 1000]] as const) gather.push(whole.subarray(from, to));
    assert.deepEqual(gather.take(), whole, `tail size ${tailBytes}`);
    assert.deepEqual(gather.take(), new Uint8Array(0), "nothing left after a take");
    gather.push(bytes(3, 7));
    assert.deepEqual(gather.take(), bytes(3, 7), "the next end starts empty");
  }
});

test("a frame is copied, not kept: changing it afterwards does not change the tail", () => {
  const gather = new TailGather(16);
  const frame = bytes(8);
  gather.push(frame);
  frame.fill(0);
  assert.deepEqual(gather.take(), bytes(8));
});
