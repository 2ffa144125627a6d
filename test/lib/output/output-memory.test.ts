// Memory stays bounded whatever the volume (DESIGN.md 4.3): many times the
// window through a store without a spill keeps exactly head + tail, and a
// spilled stream whose producer honours backpressure keeps the queue under
// its mark. The RSS figures for 512 MiB and 256 MiB are measured by
// test/bench/output-memory.bench.ts (`npm run bench -- output-memory`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";

const MiB = 1024 * 1024;

test("32 MiB without a spill: retained bytes stay at head + tail", async () => {
  const store = await BoundedStore.open({ headBytes: 64 * 1024, tailBytes: MiB });
  const chunk = new Uint8Array(64 * 1024);
  let maxMemory = 0;
  for (let i = 0; i < 32 * 16; i++) {
    chunk[0] = i & 0xff;
    store.write(chunk);
    maxMemory = Math.max(maxMemory, store.memoryBytes);
  }
  await store.close();
  assert.equal(store.totalBytes, 32 * MiB);
  assert.equal(store.retainedBytes, 64 * 1024 + MiB);
  assert.equal(store.memoryBytes, 64 * 1024 + MiB);
  assert.ok(maxMemory <= 64 * 1024 + MiB, `store held ${maxMemory} bytes at most`);
  const snap = store.snapshot();
  assert.equal(snap.elided, 32 * MiB - 64 * 1024 - MiB);
  assert.equal(snap.tail[snap.tail.length - 64 * 1024], (32 * 16 - 1) & 0xff, "the tail is the newest data");
});

test("32 MiB spilled by a producer that honours write() stays within the high-water mark", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-output-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = await BoundedStore.open({ headBytes: 64 * 1024, tailBytes: MiB, spillPath: path.join(dir, "spill") });
  let maxMemory = 0;
  let pushedBack = 0;
  for (let i = 0; i < 32 * 16; i++) {
    // A fresh chunk each time, as a pipe reader delivers them.
    const ok = store.write(new Uint8Array(64 * 1024).fill(i & 0xff));
    maxMemory = Math.max(maxMemory, store.memoryBytes);
    if (!ok) {
      pushedBack++;
      await store.drained();
    }
  }
  await store.close();
  assert.equal(statSync(path.join(dir, "spill")).size, 32 * MiB);
  assert.ok(pushedBack > 0, "the producer was asked to wait at least once");
  assert.ok(maxMemory <= 64 * 1024 + MiB + 4 * MiB + 64 * 1024, `store held ${maxMemory} bytes at most`);
});
