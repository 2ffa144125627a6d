// PTY mode: no byte lost when a fast program exits (the guardian drains the
// master before reporting the exit), resize reaches the child, the child's
// terminal is its controlling one, signals reach the foreground group.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildGuardian, collectOutput, startGuardian, tempDir } from "../../support/guardian-fixture.ts";
import { waitFor } from "../../support/wait.ts";

const bin = buildGuardian();
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

test("pty: 50 runs of cat of a 1 MB file lose no byte at exit", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, "one-mb");
  const data = randomBytes(1024 * 1024);
  writeFileSync(file, data);
  const want = sha(data);
  for (let run = 0; run < 50; run++) {
    // raw: no output processing, so the bytes arrive as they are in the file
    const g = startGuardian(t, { argv: ["sh", "-c", `stty raw -echo && exec cat ${file}`], mode: "pty" }, bin.plain, dir);
    const out = collectOutput(g);
    const exited = await g.exited;
    assert.deepEqual(exited, { code: 0, signal: null, core: false });
    const got = out.bytes();
    assert.equal(got.length, data.length, `run ${run}: got ${got.length} of ${data.length} bytes`);
    assert.equal(sha(got), want, `run ${run}: checksum`);
    await g.shutdown(0);
    await g.processExit;
  }
});

test("pty: the size is clamped, resize reaches the child (stty size)", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, {
    argv: ["sh", "-c", "stty size; read x; stty size; read y; tty; echo done"],
    mode: "pty",
    rows: 5000,
    cols: 0,
  }, bin.plain);
  const out = collectOutput(g);
  await waitFor(() => out.text().includes("1000 1\r\n"), { what: "the clamped initial size" });
  await g.resize(40, 100);
  g.write("\n");
  await waitFor(() => out.text().includes("40 100\r\n"), { what: "the new size" });
  g.write("\n");
  await g.exited;
  assert.match(out.text(), /\/dev\/pts\/\d+\r\ndone/);
});

test("pty: the child is a session leader; a signal reaches the foreground group", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sh", "-c", "trap 'echo got-int' INT; echo ready; while :; do read x || :; done"], mode: "pty" }, bin.plain);
  const out = collectOutput(g);
  const started = await g.started;
  assert.equal(started.sid, started.pid);
  assert.equal(started.pgid, started.pid);
  await waitFor(() => out.text().includes("ready"), { what: "the shell to start" });
  await g.signal("SIGINT", "foreground");
  await waitFor(() => out.text().includes("got-int"), { what: "the trap to run" });
  await assert.rejects(g.closeStdin(), /not-a-pipe|EOF key/);
  const receipt = await g.terminate(100);
  assert.equal(receipt.status, "confirmed");
});
