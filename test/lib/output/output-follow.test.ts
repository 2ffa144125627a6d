// follow(): a reader tailing a live store, with and without the spill file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { type FollowedChunk, follow } from "../../../lib/output/follow.ts";

async function collectAll(it: AsyncGenerator<FollowedChunk>) {
  const bytes: number[] = [];
  const lost: number[] = [];
  for await (const r of it) {
    if (r.kind === "data") bytes.push(...r.bytes);
    else lost.push(r.offset, r.retainedFrom);
  }
  return { bytes, lost };
}

test("a follower started before any output sees every byte as it arrives", async () => {
  const store = await BoundedStore.open({ headBytes: 1000, tailBytes: 1000 });
  const done = collectAll(follow(store, 0, { maxBytes: 3 }));
  for (let i = 0; i < 10; i++) {
    store.write(new Uint8Array([i, i]));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await store.close();
  const { bytes, lost } = await done;
  assert.deepEqual(bytes, Array.from({ length: 20 }, (_, k) => k >> 1));
  assert.deepEqual(lost, []);
});

test("a late follower without spill is told once what was lost, then gets the tail", async () => {
  const store = await BoundedStore.open({ headBytes: 2, tailBytes: 3 });
  store.write(new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
  await store.close();
  const { bytes, lost } = await collectAll(follow(store, 0));
  assert.deepEqual(bytes, [0, 1, 7, 8, 9]);
  assert.deepEqual(lost, [2, 7]);
});

test("a late follower with a spill file replays the whole stream", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-output-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = await BoundedStore.open({ headBytes: 2, tailBytes: 3, spillPath: path.join(dir, "spill") });
  const all = Array.from({ length: 5000 }, (_, k) => k & 0xff);
  store.write(new Uint8Array(all.slice(0, 4000)));
  const done = collectAll(follow(store, 1, { maxBytes: 700 }));
  store.write(new Uint8Array(all.slice(4000)));
  await store.close();
  const { bytes, lost } = await done;
  assert.deepEqual(lost, []);
  assert.deepEqual(bytes, all.slice(1));
});

test("closing while a follower reads back from the spill waits for that read", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-output-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = await BoundedStore.open({ headBytes: 0, tailBytes: 10, spillPath: path.join(dir, "spill") });
  const data = new Uint8Array(1 << 20).map((_, i) => i & 0xff);
  store.write(data);
  await store.drained();
  const reads = Array.from({ length: 8 }, (_, i) => store.readThrough(i * 1000, 100_000));
  await store.close();
  for (const [i, r] of (await Promise.all(reads)).entries()) {
    assert.equal(r.kind, "data");
    if (r.kind === "data") assert.deepEqual(r.bytes, data.subarray(i * 1000, i * 1000 + 100_000));
  }
});
