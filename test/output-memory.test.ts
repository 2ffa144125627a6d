// Memory stays bounded whatever the volume (DESIGN.md 4.3): 512 MiB through a
// store without a spill keeps exactly head + tail, and a spilled stream
// whose producer honours backpressure keeps the queue under its mark.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BoundedStore } from "../lib/output/bounded-store.ts";

const MiB = 1024 * 1024;

test("512 MiB without a spill: retained bytes stay at head + tail", async () => {
  const rssBefore = process.memoryUsage().rss;
  const store = await BoundedStore.open({ headBytes: 64 * 1024, tailBytes: MiB });
  const chunk = new Uint8Array(64 * 1024);
  let maxRss = 0;
  for (let i = 0; i < 512 * 16; i++) {
    chunk[0] = i & 0xff;
    store.write(chunk);
    if (i % 512 === 0) maxRss = Math.max(maxRss, process.memoryUsage().rss);
  }
  await store.close();
  assert.equal(store.totalBytes, 512 * MiB);
  assert.equal(store.retainedBytes, 64 * 1024 + MiB);
  assert.equal(store.memoryBytes, 64 * 1024 + MiB);
  const snap = store.snapshot();
  assert.equal(snap.elided, 512 * MiB - 64 * 1024 - MiB);
  assert.equal(snap.tail[snap.tail.length - 64 * 1024], (512 * 16 - 1) & 0xff, "the tail is the newest data");
  assert.ok(maxRss - rssBefore < 100 * MiB, `RSS grew by ${((maxRss - rssBefore) / MiB).toFixed(1)} MiB`);
});

test("256 MiB spilled by a producer that honours write() stays within the high-water mark", async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-output-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const rssBefore = process.memoryUsage().rss;
  const store = await BoundedStore.open({ headBytes: 64 * 1024, tailBytes: MiB, spillPath: path.join(dir, "spill") });
  let maxMemory = 0;
  let maxRss = 0;
  for (let i = 0; i < 256 * 16; i++) {
    // A fresh chunk each time, as a pipe reader delivers them.
    const ok = store.write(new Uint8Array(64 * 1024).fill(i & 0xff));
    maxMemory = Math.max(maxMemory, store.memoryBytes);
    if (!ok) {
      maxRss = Math.max(maxRss, process.memoryUsage().rss);
      await store.drained();
    }
  }
  await store.close();
  assert.equal(statSync(path.join(dir, "spill")).size, 256 * MiB);
  assert.ok(maxMemory <= 64 * 1024 + MiB + 4 * MiB + 64 * 1024, `store held ${maxMemory} bytes at most`);
  assert.ok(maxRss - rssBefore < 100 * MiB, `RSS grew by ${((maxRss - rssBefore) / MiB).toFixed(1)} MiB`);
});
