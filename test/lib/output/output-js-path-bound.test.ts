// collect's JavaScript path (CORRAL_GUARDIAN=never, Deno, Bun without the
// guardian) keeps its memory flat by construction, shown here without
// measuring RSS (the figures are `npm run bench -- collect-spill`):
// - the pipe backend hands a sink that copies (writeTransient) the child's
//   output in one reused buffer: no fresh buffer per read for V8 to collect;
// - it stops reading while the sink says it is full;
// - the spill queues copies in a fixed set of recycled slabs, and a --live
//   tee copies for its target into a few recycled slabs, whatever the volume.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { supervise } from "../../../lib/supervise/supervise.ts";
import { endOf } from "../../../lib/supervise/start.ts";
import { processGroupTree } from "../../../lib/supervise/process-group/tree.ts";
import type { ByteSink } from "../../../lib/supervise/spec.ts";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { TeeSink } from "../../../lib/output/tee-sink.ts";

const MiB = 1024 * 1024;
const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", CORRALTEST_SUITE: process.env["CORRALTEST_SUITE"] ?? "" };
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-jsbound-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A sink that copies (as BoundedStore.writeTransient does) and notes which buffers it was handed. */
class CopyingSink implements ByteSink {
  readonly hash = createHash("sha256");
  readonly buffers = new Set<ArrayBufferLike>();
  bytes = 0;
  writes = 0;
  transientWrites = 0;
  /** When set, every writeTransient asks the producer to pause until the next turn of the event loop. */
  pushBack = false;
  #paused = false;
  /** Chunks that arrived while the sink had asked for a pause. */
  whilePaused = 0;

  write(chunk: Uint8Array): boolean {
    this.writes++;
    this.hash.update(chunk);
    this.bytes += chunk.length;
    return true;
  }

  writeTransient(chunk: Uint8Array): boolean {
    if (this.#paused) this.whilePaused++;
    this.transientWrites++;
    this.buffers.add(chunk.buffer);
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (!this.pushBack) return true;
    this.#paused = true;
    return false;
  }

  onDrain(listener: () => void): void {
    if (!this.#paused) return listener();
    setImmediate(() => {
      this.#paused = false;
      listener();
    });
  }
}

test("the pipe backend hands a copying sink the child's output in one reused buffer", async (t) => {
  const dir = tempDir(t);
  const data = randomBytes(8 * MiB + 3);
  const file = path.join(dir, "data");
  writeFileSync(file, data);
  const out = new CopyingSink();
  const err = new CopyingSink();
  const child = await supervise(
    { argv: ["sh", "-c", 'cat "$1"; printf oops >&2', "sh", file], env, stdout: { sink: out }, stderr: { sink: err }, graceMs: 5000 },
    processGroupTree,
  );
  const { facts } = await endOf(child);
  assert.equal(facts.code, 0);
  assert.equal(facts.outputComplete, true);
  assert.equal(out.hash.digest("hex"), sha256(data), "byte-exact");
  assert.equal(out.writes, 0, "no fresh chunk went through write()");
  assert.ok(out.transientWrites > 0);
  assert.equal(out.buffers.size, 1, `every read landed in the same buffer (${out.buffers.size} distinct over ${out.transientWrites} reads)`);
  assert.equal(err.bytes, 4);
  assert.equal(err.buffers.size, 1);
});

test("merged streams (2>&1) come through one reused buffer too", async () => {
  const out = new CopyingSink();
  const child = await supervise(
    { argv: ["sh", "-c", "echo one; echo two >&2; echo three"], env, stdout: { sink: out }, stderr: "stdout", graceMs: 5000 },
    processGroupTree,
  );
  const { facts } = await endOf(child);
  assert.equal(facts.code, 0);
  assert.equal(out.bytes, "one\ntwo\nthree\n".length);
  assert.equal(out.writes, 0);
  assert.equal(out.buffers.size, 1);
});

test("the pipe backend stops reading while the sink has asked for a pause", async (t) => {
  const dir = tempDir(t);
  const data = randomBytes(16 * MiB);
  const file = path.join(dir, "data");
  writeFileSync(file, data);
  const out = new CopyingSink();
  out.pushBack = true; // every chunk: "full", drained on the next turn of the loop
  const child = await supervise({ argv: ["cat", file], env, stdout: { sink: out }, graceMs: 5000 }, processGroupTree);
  const { facts } = await endOf(child);
  assert.equal(facts.outputComplete, true);
  assert.equal(out.hash.digest("hex"), sha256(data), "byte-exact after every pause");
  assert.ok(out.transientWrites > 1);
  assert.equal(out.whilePaused, 0, "no read was delivered while the sink was full");
});

test("a spill fed copies of 64 MiB holds a fixed set of slabs: memory stays at head + tail + about the queue's mark", async (t) => {
  const dir = tempDir(t);
  const highWaterMark = 2 * MiB;
  const store = await BoundedStore.open({ headBytes: 64 * 1024, tailBytes: MiB, spillPath: path.join(dir, "spill"), highWaterMark });
  const reused = new Uint8Array(200 * 1024); // what a socket read hands over, overwritten every time
  const hash = createHash("sha256");
  let maxMemory = 0;
  for (let i = 0, left = 64 * MiB; left > 0; i++) {
    const n = Math.min(left, reused.length - (i % 7) * 1000);
    reused.fill(i & 0xff, 0, n);
    hash.update(reused.subarray(0, n));
    const ok = store.writeTransient(reused.subarray(0, n));
    maxMemory = Math.max(maxMemory, store.memoryBytes);
    left -= n;
    if (!ok) await store.drained();
  }
  await store.close();
  assert.equal(createHash("sha256").update(readFileSync(path.join(dir, "spill"))).digest("hex"), hash.digest("hex"));
  // The mark, one read past it, and a partly filled slab at each end.
  const bound = 64 * 1024 + MiB + highWaterMark + reused.length + 2 * 256 * 1024;
  assert.ok(maxMemory <= bound, `store held ${maxMemory} bytes at most (bound ${bound})`);
  assert.ok(store.memoryBytes <= bound, "slabs are reused, not replaced: the total stays under the bound at the end");
});

/** A slow reader of corral's stdout: 64 KiB of buffer, each write done a turn of the loop later. */
function slowTarget(received: { hash: ReturnType<typeof createHash>; bytes: number }): Writable {
  return new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      received.hash.update(chunk);
      received.bytes += chunk.length;
      setImmediate(done);
    },
  });
}

test("a --live tee fed 64 MiB of copies through a slow target allocates a few slabs, and the target gets every byte", async () => {
  const store = await BoundedStore.open({ headBytes: 1024, tailBytes: 4096 });
  const received = { hash: createHash("sha256"), bytes: 0 };
  const target = slowTarget(received);
  const tee = new TeeSink(store, target);
  const reused = new Uint8Array(256 * 1024);
  const sent = createHash("sha256");
  for (let i = 0, left = 64 * MiB; left > 0; i++) {
    const n = Math.min(left, reused.length - (i % 5) * 4096);
    reused.fill((i * 7) & 0xff, 0, n);
    sent.update(reused.subarray(0, n));
    const ok = tee.writeTransient(reused.subarray(0, n));
    reused.fill(0xee); // the producer scribbles over its buffer at once
    left -= n;
    if (!ok) await new Promise<void>((resolve) => tee.onDrain(resolve));
  }
  await new Promise<void>((resolve) => target.end(resolve));
  await store.close();
  assert.equal(received.bytes, 64 * MiB);
  assert.equal(received.hash.digest("hex"), sent.digest("hex"), "byte-exact, in order, though the producer reused its buffer");
  assert.equal(store.totalBytes, 64 * MiB);
  assert.ok(tee.slabsAllocated <= 4, `${tee.slabsAllocated} slabs of 256 KiB for 64 MiB`);
});

test("no channel can be made (an unusable $TMPDIR): the sink gets the child's pipe stream, every byte", async (t) => {
  const saved = process.env["TMPDIR"];
  process.env["TMPDIR"] = path.join(tmpdir(), "corral-no-such-dir", "below");
  t.after(() => {
    if (saved === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = saved;
  });
  const out = new CopyingSink();
  const child = await supervise({ argv: ["sh", "-c", "seq 1 50000"], env, stdout: { sink: out }, graceMs: 5000 }, processGroupTree);
  const { facts } = await endOf(child);
  assert.equal(facts.code, 0);
  assert.equal(facts.outputComplete, true);
  const want = Array.from({ length: 50000 }, (_, i) => `${i + 1}\n`).join("");
  assert.equal(out.hash.digest("hex"), sha256(Buffer.from(want)));
  assert.equal(out.transientWrites, 0, "no channel");
  assert.ok(out.writes > 0, "the pipe stream fed write()");
});
