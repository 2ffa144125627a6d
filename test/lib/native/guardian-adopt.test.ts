// Outliving the owner (native/orphan.c, issue 11): an --adoptable guardian
// keeps its child when the owner goes, keeps reading (the child never
// blocks), keeps the raw tail with the exact position, counts what it could
// not hold, and hands all of it, plus the exit, to a new owner with the token.
// Without --adoptable the lifeline rule stays: the tree goes with the owner.
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildGuardian, collectOutput, python, startGuardian, tempDir } from "../../support/guardian-fixture.ts";
import { connectGuardian } from "../../../lib/supervise/guardian/launch.ts";
import type { Guardian } from "../../../lib/supervise/guardian/client.ts";
import type { WelcomeEvent } from "../../../lib/supervise/guardian/protocol.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

const bin = buildGuardian();

/**
 * New owners made by a test, shut down when it ends. Registered before
 * startGuardian's own cleanup (after-hooks run in order), which waits for the
 * guardian to exit: that wait needs the new owner's shutdown first.
 */
function newOwners(t: TestContext): Guardian[] {
  const owners: Guardian[] = [];
  t.after(async () => {
    for (const owner of owners) {
      await owner.shutdown(0).catch(() => {});
      owner.detach();
    }
  });
  return owners;
}

/** Connects as a new owner and gathers the welcome, the backlog and what follows. */
async function adopt(g: Guardian, owners: Guardian[]): Promise<{ next: Guardian; welcome: WelcomeEvent; backlog: () => Buffer; live: () => Buffer }> {
  const next = connectGuardian(g.reconnectPath, g.token);
  owners.push(next);
  const backlog: Buffer[] = [];
  next.on("backlog", (_s, bytes) => backlog.push(Buffer.from(bytes)));
  const live = collectOutput(next);
  const welcome = await next.ready;
  return { next, welcome, backlog: () => Buffer.concat(backlog), live: () => live.bytes() };
}

test("adoptable: the child outlives its owner; a new owner gets position, tail and the rest of the stream", { timeout: 120_000 }, async (t) => {
  const owners = newOwners(t);
  // Prints 0..N lines on demand: each line written to stdin makes it print the next block.
  const script = "import sys\nfor i, _ in enumerate(sys.stdin):\n    sys.stdout.write(''.join('line %d.%d\\n' % (i, k) for k in range(100)))\n    sys.stdout.flush()\n";
  const g = startGuardian(t, { argv: [python, "-c", script], mode: "pipe", stdin: "pipe", adoptable: true, graceMs: 100 }, bin.asan);
  const first = collectOutput(g);
  const started = await g.started;
  g.write("a\n");
  await waitFor(() => first.text().includes("line 0.99\n"), { what: "the first block" });
  const seen = first.bytes().length;
  g.detach();
  await g.closed;
  assert.equal(isAlive(started.pid), true, "the child runs on without an owner");
  const second = await adopt(g, owners);
  const stream = second.welcome.adopt?.streams.find((s) => s.stream === 1);
  assert.deepEqual(stream, { stream: 1, position: seen, buffered: seen, dropped: 0, eof: false });
  await waitFor(() => second.backlog().length === seen, { what: "the backlog" });
  assert.equal(second.backlog().toString(), first.text(), "the raw tail is the stream so far");
  second.next.write("b\n");
  await waitFor(() => second.live().toString().includes("line 1.99\n"), { what: "live output to the new owner" });
  assert.match(second.live().toString(), /^line 1\.0\n/);
});

test("adoptable: a flood while unowned is read at once (the child never blocks); what the tail cannot hold is counted", { timeout: 120_000 }, async (t) => {
  const owners = newOwners(t);
  const total = 8 * 1024 * 1024;
  const dir = tempDir(t);
  const go = path.join(dir, "go");
  // The child starts its flood only once the owner is gone (the file appears after the detach).
  const g = startGuardian(t, {
    argv: ["sh", "-c", `while [ ! -e '${go}' ]; do sleep 0.05; done; head -c ${total} /dev/zero | tr '\\0' x; echo done >&2; exit 3`],
    mode: "pipe", stdin: "null", stderr: "pipe", adoptable: true, orphanBufferBytes: 65536, graceMs: 100,
  }, bin.plain, dir);
  const started = await g.started;
  g.detach();
  await g.closed;
  writeFileSync(go, "");
  // The child can finish only if nothing blocks its writes while nobody reads the guardian.
  await waitFor(() => !isAlive(started.pid), { what: "the child to finish its flood unowned", timeoutMs: 60_000 });
  const next = await adopt(g, owners);
  let exited: unknown;
  next.next.on("exited", (e) => (exited = e));
  assert.equal(next.welcome.exited, true);
  await next.next.exited;
  assert.deepEqual(exited, { code: 3, signal: null, core: false });
  assert.deepEqual(next.welcome.adopt?.streams, [
    { stream: 1, position: total, buffered: 65536, dropped: total - 65536, eof: true },
    { stream: 2, position: 5, buffered: 5, dropped: 0, eof: true },
  ]);
  await waitFor(() => next.backlog().length === 65536 + 5, { what: "the backlog" });
  assert.equal(next.backlog().toString(), "x".repeat(65536) + "done\n");
});

test("adoptable: exit facts wait for a new owner only --exit-wait; then the guardian is gone", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sh", "-c", "read x; exit 7"], mode: "pipe", stdin: "pipe", adoptable: true, exitWaitMs: 200, graceMs: 100 }, bin.asan);
  const started = await g.started;
  g.write("x\n");
  g.detach();
  await g.closed;
  await waitFor(() => !isAlive(started.pid), { what: "the child to exit" });
  const exit = await g.processExit;
  assert.equal(exit?.code, 0, "the guardian exits by itself after its bound");
});

test("adoptable: --orphan-wait bounds the wait while the child lives; then the tree is terminated", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sh", "-c", "sleep 1000 & wait"], mode: "pipe", adoptable: true, orphanWaitMs: 300, graceMs: 100 }, bin.asan);
  const started = await g.started;
  g.detach();
  await g.processExit;
  await waitFor(() => !isAlive(started.pid), { what: "the child to be gone" });
});

test("adoptable pty: the re-adopting owner learns the size and gets the screen's bytes", { timeout: 120_000 }, async (t) => {
  const owners = newOwners(t);
  const g = startGuardian(t, { argv: ["sh", "-c", "printf 'hello\\n'; read x; printf 'got %s\\n' \"$x\"; read y"], mode: "pty", rows: 10, cols: 40, adoptable: true, graceMs: 100 }, bin.asan);
  const out = collectOutput(g);
  await g.started;
  await waitFor(() => out.text().includes("hello"), { what: "hello" });
  await g.resize(12, 50);
  g.detach();
  await g.closed;
  const second = await adopt(g, owners);
  assert.equal(second.welcome.adopt?.rows, 12);
  assert.equal(second.welcome.adopt?.cols, 50);
  await waitFor(() => second.backlog().toString().includes("hello"), { what: "the backlog" });
  second.next.write("abc\r");
  await waitFor(() => second.live().toString().includes("got abc"), { what: "the program answers the new owner" });
  const digest = createHash("sha256").update(second.backlog()).digest("hex");
  assert.equal(digest, createHash("sha256").update(out.bytes()).digest("hex"));
});
