// OutputChannel: a child's output into a store through a socket read with one
// reused buffer; and writeTransient, the store's copying write it relies on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { OutputChannel } from "../../../lib/output/output-channel.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-output-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("writeTransient copies: one buffer reused for every chunk still spills byte-exact", async (t) => {
  const dir = tempDir(t);
  const data = randomBytes(7 * 1024 * 1024 + 5);
  const store = await BoundedStore.open({
    headBytes: 100,
    tailBytes: 5000,
    spillPath: path.join(dir, "spill"),
    highWaterMark: 512 * 1024,
  });
  const reused = new Uint8Array(3 * 1024 * 1024);
  const sizes = [1, 65536, 3 * 1024 * 1024, 7, 1024 * 1024 - 1, 200_000];
  let pauses = 0;
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = Math.min(sizes[i % sizes.length] as number, data.length - at);
    reused.set(data.subarray(at, at + n));
    const ok = store.writeTransient(reused.subarray(0, n));
    reused.fill(0xee); // the caller scribbles over its buffer at once
    at += n;
    if (!ok) {
      pauses++;
      await store.drained();
    }
  }
  await store.close();
  assert.ok(pauses > 0);
  assert.equal(sha256(readFileSync(path.join(dir, "spill"))), sha256(data));
  assert.deepEqual(store.snapshot().head, new Uint8Array(data.subarray(0, 100)));
  assert.deepEqual(store.snapshot().tail, new Uint8Array(data.subarray(data.length - 5000)));
});

test("a child's output through an OutputChannel spills byte-exact and reaches EOF", async (t) => {
  const dir = tempDir(t);
  const big = path.join(dir, "big");
  writeFileSync(big, randomBytes(32 * 1024 * 1024));
  const store = await BoundedStore.open({ headBytes: 64 * 1024, tailBytes: 1024 * 1024, spillPath: path.join(dir, "spill") });
  const channel = await OutputChannel.open(store);
  const child = spawn("cat", [big], { stdio: ["ignore", channel.childEnd, "inherit"] });
  channel.released();
  await Promise.all([channel.ended, new Promise((resolve) => child.once("close", resolve))]);
  await store.close();
  assert.equal(store.totalBytes, 32 * 1024 * 1024);
  assert.equal(sha256(readFileSync(path.join(dir, "spill"))), sha256(readFileSync(big)));
});

test("one channel on fd 1 and fd 2 merges the streams in write order", async () => {
  const store = await BoundedStore.open({ headBytes: 1000, tailBytes: 1000 });
  const channel = await OutputChannel.open(store);
  const child = spawn("sh", ["-c", "printf 1; printf 2 >&2; printf 3; printf 4 >&2"], {
    stdio: ["ignore", channel.childEnd, channel.childEnd],
  });
  channel.released();
  await Promise.all([channel.ended, new Promise((resolve) => child.once("close", resolve))]);
  await store.close();
  assert.equal(new TextDecoder().decode(store.snapshot().head), "1234");
});

test("a grandchild holding the channel keeps it open until destroy()", async (t) => {
  const store = await BoundedStore.open({ headBytes: 1000, tailBytes: 1000 });
  const channel = await OutputChannel.open(store);
  const child = spawn("sh", ["-c", "sleep 600 & echo $!"], { stdio: ["ignore", channel.childEnd, "inherit"] });
  channel.released();
  await new Promise((resolve) => child.once("close", resolve));
  const pid = await waitFor(() => {
    const line = new TextDecoder().decode(store.snapshot().head);
    return line.endsWith("\n") ? Number(line.trim()) : undefined;
  }, { what: "the grandchild's pid" });
  t.after(async () => {
    process.kill(pid, "SIGKILL");
    await waitFor(() => !isAlive(pid), { what: "the grandchild to be gone" });
  });
  let ended = false;
  void channel.ended.then(() => (ended = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(ended, false, "the sleep still holds the socket");
  channel.destroy();
  await channel.ended;
  await store.close();
});
