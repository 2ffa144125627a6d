// The lifeline and the bounded drain: an owner that leaves without coming
// back within --linger gets its tree terminated; a grandchild holding the
// PTY open delays the exit event only by the drain time; requests that do
// not fit the mode are answered with a typed error, not ignored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildGuardian, collectOutput, startGuardian } from "../../support/guardian-fixture.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

const bin = buildGuardian();

test("lifeline: no owner back within --linger -> the tree is terminated and the guardian exits", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sh", "-c", "sleep 1000 & wait"], mode: "pipe", lingerMs: 300, graceMs: 100 }, bin.asan);
  const started = await g.started;
  g.detach();
  await g.closed;
  assert.equal(isAlive(started.pid), true, "still running while the guardian waits for its owner");
  const exit = await g.processExit;
  assert.equal(exit?.code, 0);
  await waitFor(() => !isAlive(started.pid), { what: "the child to be gone" });
});

test("pty: a grandchild holding the terminal delays the exit event by the drain time only", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sh", "-c", "trap '' HUP; sleep 1000 & echo hi"], mode: "pty", drainMs: 200 }, bin.plain);
  const out = collectOutput(g);
  // Listening before terminate: the EOF may arrive in the same read as the receipt.
  const eof = new Promise<void>((resolve) => g.on("eof", () => resolve()));
  assert.deepEqual(await g.exited, { code: 0, signal: null, core: false });
  assert.match(out.text(), /hi/);
  const receipt = await g.terminate(1000);
  assert.equal(receipt.status, "confirmed");
  assert.equal(receipt.members.length, 1, "the sleep");
  await eof;
});

test("requests that do not fit: resize in pipe mode, unknown signal, foreground of an exited child", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sh", "-c", "read x"], mode: "pipe" }, bin.asan);
  await g.started;
  await assert.rejects(g.resize(10, 10), /needs --mode pty/);
  await assert.rejects(g.signal("SIGNOPE"), /unknown signal SIGNOPE/);
  await g.closeStdin();
  await g.exited;
  await assert.rejects(g.signal("SIGTERM", "foreground"), /exited/);
  await assert.rejects(g.signal("SIGTERM"), /exited/);
  await g.closeStdin(); // idempotent
});
