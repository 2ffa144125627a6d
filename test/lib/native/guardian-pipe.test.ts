// Pipe mode: half-close (cat sees EOF only after every byte before it),
// stdout/stderr apart or merged, exec failures, exactly fds 0-2 in the
// child, and collect's fast path (the guardian writes the spill file).
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { waitFor } from "../../support/wait.ts";
import { buildGuardian, collectOutput, python, startGuardian, tempDir } from "../../support/guardian-fixture.ts";

const bin = buildGuardian();

test("pipe: close-stdin is acknowledged after every byte was delivered; cat echoes all of it", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["cat"], mode: "pipe" }, bin.plain);
  const out = collectOutput(g);
  const eofs: number[] = [];
  g.on("eof", (s) => eofs.push(s));
  const input = randomBytes(3 * 1024 * 1024 + 17);
  for (let at = 0; at < input.length; at += 100_000) g.write(input.subarray(at, at + 100_000));
  await g.closeStdin();
  assert.deepEqual(await g.exited, { code: 0, signal: null, core: false });
  await waitFor(() => eofs.length === 2, { what: "EOF on stdout and stderr" });
  assert.equal(Buffer.compare(out.bytes(), input), 0, `got ${out.bytes().length} of ${input.length} bytes`);
});

test("pipe: stdout and stderr apart, or merged into one pipe", { timeout: 120_000 }, async (t) => {
  const script = "echo one; echo two >&2; echo three";
  const apart = startGuardian(t, { argv: ["sh", "-c", script], mode: "pipe" }, bin.plain);
  const a = collectOutput(apart);
  await apart.exited;
  await apart.shutdown(0);
  assert.equal(a.text(1), "one\nthree\n");
  assert.equal(a.text(2), "two\n");
  const merged = startGuardian(t, { argv: ["sh", "-c", script], mode: "pipe", stderr: "stdout" }, bin.plain);
  const m = collectOutput(merged);
  await merged.exited;
  await merged.shutdown(0);
  assert.equal(m.text(1), "one\ntwo\nthree\n");
  assert.equal(m.text(2), "");
});

test("pipe: a missing command is a spawn failure with ENOENT", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["/nonexistent/corral-test"], mode: "pipe" }, bin.plain);
  let errno = 0;
  g.on("spawnFailed", (e) => (errno = e.errno));
  await assert.rejects(g.started, /No such file/);
  assert.equal(errno, 2);
});

test("the child gets exactly fds 0, 1 and 2", { timeout: 120_000 }, async (t) => {
  const probe = "import os\nopen_fds = []\nfor fd in range(0, 256):\n  try:\n    os.fstat(fd); open_fds.append(fd)\n  except OSError: pass\nprint(open_fds)";
  for (const mode of ["pipe", "pty"] as const) {
    const g = startGuardian(t, { argv: [python, "-c", probe], mode }, bin.plain);
    const out = collectOutput(g);
    await g.exited;
    await g.shutdown(0);
    assert.equal(out.text().trim(), "[0, 1, 2]", mode);
  }
});

test("spill fast path: the guardian writes the file; the owner gets head, tail and the total", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const source = path.join(dir, "source");
  const spill = path.join(dir, "spill");
  const data = randomBytes(5 * 1024 * 1024 + 3);
  writeFileSync(source, data);
  const g = startGuardian(t, {
    argv: ["cat", source], mode: "pipe", spillStdout: spill, headBytes: 1000, tailBytes: 70_000,
  }, bin.plain, dir);
  const out = collectOutput(g);
  const tail: Buffer[] = [];
  g.on("tail", (_s, b) => tail.push(Buffer.from(b)));
  const spilled = new Promise((resolve) => g.on("spilled", resolve));
  await g.exited;
  assert.deepEqual(await spilled, { stream: 1, total: data.length, error: null, errno: 0, tailSent: true });
  assert.equal(Buffer.compare(out.bytes(), data.subarray(0, 1000)), 0, "head");
  assert.equal(Buffer.compare(Buffer.concat(tail), data.subarray(data.length - 70_000)), 0, "tail");
  assert.equal(Buffer.compare(readFileSync(spill), data), 0, "spill file");
});

test("spill with less output than head and tail: the head frames and the tail both hold it all", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const spill = path.join(dir, "spill");
  const g = startGuardian(t, { argv: ["printf", "short"], mode: "pipe", spillStdout: spill, spillStderr: path.join(dir, "err"), headBytes: 100, tailBytes: 100 }, bin.plain, dir);
  const out = collectOutput(g);
  const tail: Buffer[] = [];
  g.on("tail", (_s, b) => tail.push(Buffer.from(b)));
  const spilled: { stream: number }[] = [];
  g.on("spilled", (e) => spilled.push(e));
  await g.exited;
  await waitFor(() => spilled.length === 2, { what: "both streams spilled" });
  assert.equal(out.text(), "short");
  assert.equal(Buffer.concat(tail).toString(), "short");
  assert.deepEqual(spilled.sort((a, b) => a.stream - b.stream), [{ stream: 1, total: 5, error: null, errno: 0, tailSent: true }, { stream: 2, total: 0, error: null, errno: 0, tailSent: true }]);
  assert.equal(readFileSync(spill, "utf8"), "short");
});

test("direct spill: the file is the child's stdout (merged stderr too); head, tail and size read back at exit", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const source = path.join(dir, "source");
  const spill = path.join(dir, "spill");
  const data = randomBytes(3 * 1024 * 1024 + 5);
  writeFileSync(source, data);
  const g = startGuardian(t, {
    argv: ["sh", "-c", `cat ${source}; echo tail-on-stderr >&2`], mode: "pipe", stderr: "stdout",
    spillStdout: spill, spillDirect: true, headBytes: 4096, tailBytes: 100_000,
  }, bin.plain, dir);
  const out = collectOutput(g);
  const tail: Buffer[] = [];
  g.on("tail", (_s, b) => tail.push(Buffer.from(b)));
  const spilled = new Promise((resolve) => g.on("spilled", resolve));
  const whole = Buffer.concat([data, Buffer.from("tail-on-stderr\n")]);
  assert.deepEqual(await g.exited, { code: 0, signal: null, core: false });
  assert.deepEqual(await spilled, { stream: 1, total: whole.length, error: null, direct: true });
  assert.equal(Buffer.compare(out.bytes(), whole.subarray(0, 4096)), 0, "head");
  assert.equal(Buffer.compare(Buffer.concat(tail), whole.subarray(whole.length - 100_000)), 0, "tail");
  assert.equal(Buffer.compare(readFileSync(spill), whole), 0, "spill file");
});
