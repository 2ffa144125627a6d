// The spill file: byte-identical to the stream (sha256) for binary data, a
// clear error for a bad path, backpressure that pauses and drains, lost
// ranges served back from the spill, and a real child's pipe pumped through.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BoundedStore, SpillError } from "../../../lib/output/bounded-store.ts";
import { feedStore } from "../../../lib/output/stream-feed.ts";
import { waitFor } from "../../support/wait.ts";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-output-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("spill is byte-identical for binary data written in uneven chunks", async (t) => {
  const dir = tempDir(t);
  const data = randomBytes(5 * 1024 * 1024 + 17);
  const store = await BoundedStore.open({ headBytes: 1000, tailBytes: 4096, spillPath: path.join(dir, "out") });
  assert.equal(store.spillPath, path.join(dir, "out"));
  let at = 0;
  let i = 0;
  while (at < data.length) {
    const size = [1, 7, 65536, 3, 200_000, 0, 4095][i++ % 7] as number;
    // Fresh copies: the store keeps chunks by reference until they are spilled.
    store.write(Uint8Array.prototype.slice.call(data, at, at + size));
    at += size;
  }
  await store.close();
  const onDisk = readFileSync(path.join(dir, "out"));
  assert.equal(onDisk.length, data.length);
  assert.equal(sha256(onDisk), sha256(data));
  const snap = store.snapshot();
  assert.deepEqual(snap.head, new Uint8Array(data.subarray(0, 1000)));
  assert.deepEqual(snap.tail, new Uint8Array(data.subarray(data.length - 4096)));
  assert.equal(snap.elided, data.length - 1000 - 4096);
});

test("an existing spill file is truncated; an empty stream leaves an empty file", async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "old");
  writeFileSync(file, "previous contents");
  const store = await BoundedStore.open({ headBytes: 10, tailBytes: 10, spillPath: file });
  await store.close();
  assert.equal(statSync(file).size, 0);
});

test("a spill path that cannot be opened is a SpillError naming the path", async (t) => {
  const dir = tempDir(t);
  const missing = path.join(dir, "no", "such", "dir", "out");
  await assert.rejects(
    BoundedStore.open({ headBytes: 1, tailBytes: 1, spillPath: missing }),
    (err: unknown) =>
      err instanceof SpillError && err.code === "ENOENT" && err.message.includes(missing) &&
      err.message.includes("no such directory"),
  );
  await assert.rejects(BoundedStore.open({ headBytes: 1, tailBytes: 1, spillPath: dir }), (err: unknown) =>
    err instanceof SpillError && err.message.includes(dir) && err.code === "EISDIR");
});

test("write returns false above the high-water mark and drained() lets the producer go on", async (t) => {
  const dir = tempDir(t);
  const store = await BoundedStore.open({
    headBytes: 0,
    tailBytes: 1024,
    spillPath: path.join(dir, "out"),
    highWaterMark: 256 * 1024,
  });
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let pauses = 0;
  let maxMemory = 0;
  for (let i = 0; i < 400; i++) {
    const ok = store.write(chunk);
    maxMemory = Math.max(maxMemory, store.memoryBytes);
    if (!ok) {
      pauses++;
      await store.drained();
      assert.ok(store.memoryBytes <= 1024 + 128 * 1024, "drained means at most half the mark is queued");
    }
  }
  await store.close();
  assert.ok(pauses > 0, "a producer faster than the disk was asked to pause");
  assert.ok(maxMemory <= 1024 + 256 * 1024 + chunk.length, `memory stayed bounded (${maxMemory})`);
  assert.equal(statSync(path.join(dir, "out")).size, 400 * chunk.length);
});

test("without a spill, write never asks to pause", async () => {
  const store = await BoundedStore.open({ headBytes: 0, tailBytes: 10, highWaterMark: 1 });
  assert.equal(store.write(new Uint8Array(1000)), true);
  await store.drained();
  await store.close();
  assert.equal(store.spillPath, null);
});

test("readThrough serves lost ranges from the spill; read() only says lost", async (t) => {
  const dir = tempDir(t);
  const data = randomBytes(300_000);
  const spill = path.join(dir, "out");
  const store = await BoundedStore.open({ headBytes: 100, tailBytes: 1000, spillPath: spill });
  for (let at = 0; at < data.length; at += 30_000) store.write(Uint8Array.prototype.slice.call(data, at, at + 30_000));
  assert.deepEqual(store.read(5000, 10), { kind: "lost", offset: 5000, retainedFrom: 299_000, spill });
  // Before close: waits for the queued bytes to reach the disk, then reads them.
  const early = await store.readThrough(5000, 70_000);
  assert.equal(early.kind, "data");
  if (early.kind === "data") {
    assert.deepEqual(early.bytes, new Uint8Array(data.subarray(5000, 75_000)));
    assert.equal(early.nextOffset, 75_000);
  }
  await store.close();
  // After close, and a read clipped at the start of the tail window.
  const late = await store.readThrough(298_000, 5000);
  assert.ok(late.kind === "data" && late.nextOffset === 299_000);
  if (late.kind === "data") assert.deepEqual(late.bytes, new Uint8Array(data.subarray(298_000, 299_000)));
  const inTail = await store.readThrough(299_500, 5000);
  assert.ok(inTail.kind === "data" && inTail.nextOffset === 300_000);
  assert.deepEqual(await store.readThrough(300_000, 1), { kind: "eof", offset: 300_000 });
});

test("a child's pipe pumped through feedStore spills byte-exact with bounded memory", async (t) => {
  const dir = tempDir(t);
  const big = path.join(dir, "big");
  writeFileSync(big, randomBytes(24 * 1024 * 1024));
  const spill = path.join(dir, "spill");
  const store = await BoundedStore.open({
    headBytes: 64 * 1024,
    tailBytes: 1024 * 1024,
    spillPath: spill,
    highWaterMark: 1024 * 1024,
  });
  const child = spawn("cat", [big], { stdio: ["ignore", "pipe", "inherit"] });
  let maxMemory = 0;
  child.stdout.on("data", () => (maxMemory = Math.max(maxMemory, store.memoryBytes)));
  await feedStore(child.stdout, store);
  await new Promise((resolve) => child.once("close", resolve));
  await store.close();
  assert.equal(sha256(readFileSync(spill)), sha256(readFileSync(big)));
  assert.equal(store.totalBytes, 24 * 1024 * 1024);
  assert.ok(maxMemory <= 64 * 1024 + 1024 * 1024 + 1024 * 1024 + 256 * 1024, `memory bounded (${maxMemory})`);
});

test("a spill that fails mid-stream (disk full) stops spilling, keeps head and tail, and close() says so", async () => {
  // /dev/full opens fine and fails every write with ENOSPC.
  const store = await BoundedStore.open({ headBytes: 4, tailBytes: 4, spillPath: "/dev/full", highWaterMark: 1024 });
  store.write(new Uint8Array([1, 2, 3, 4, 5, 6]));
  await waitFor(() => store.spillError !== null, { what: "the spill write to fail" });
  assert.equal(store.spillError?.code, "ENOSPC");
  assert.match(store.spillError?.message ?? "", /cannot write spill file \/dev\/full: no space left/);
  // Later writes are kept in memory only and never ask the producer to pause.
  for (let i = 0; i < 100; i++) assert.equal(store.write(new Uint8Array(4096).fill(7)), true);
  assert.ok(store.memoryBytes <= 8);
  assert.deepEqual(await store.readThrough(5, 1), { kind: "lost", offset: 5, retainedFrom: store.totalBytes - 4, spill: "/dev/full" });
  await assert.rejects(store.close(), (err: unknown) => err instanceof SpillError && err.code === "ENOSPC");
  await assert.rejects(store.close(), SpillError, "close is idempotent: the same answer");
  assert.deepEqual(store.snapshot().head, new Uint8Array([1, 2, 3, 4]));
  assert.deepEqual(store.snapshot().tail, new Uint8Array([7, 7, 7, 7]));
});

test("two sources fed into one store (as --merge does) keep each source's order", async () => {
  const store = await BoundedStore.open({ headBytes: 1 << 20, tailBytes: 0 });
  const a = spawn("sh", ["-c", "for i in 1 2 3 4 5; do echo a$i; done"], { stdio: ["ignore", "pipe", "ignore"] });
  const b = spawn("sh", ["-c", "for i in 1 2 3 4 5; do echo b$i; done"], { stdio: ["ignore", "pipe", "ignore"] });
  await Promise.all([feedStore(a.stdout, store), feedStore(b.stdout, store)]);
  await Promise.all([a, b].map((c) => new Promise((resolve) => c.exitCode !== null ? resolve(null) : c.once("close", resolve))));
  await store.close();
  const lines = new TextDecoder().decode(store.snapshot().head).trim().split("\n");
  assert.deepEqual(lines.filter((l) => l.startsWith("a")), ["a1", "a2", "a3", "a4", "a5"]);
  assert.deepEqual(lines.filter((l) => l.startsWith("b")), ["b1", "b2", "b3", "b4", "b5"]);
});
