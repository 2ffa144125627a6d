// corral-guardian as a program: --probe, usage errors (one line, status 2),
// no owner within the connect timeout (exits, socket removed), SIGTERM to
// the guardian (terminates its tree, then exits).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { buildGuardian, startGuardian, tempDir } from "../../support/guardian-fixture.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

const bin = buildGuardian();
const token = { CORRAL_GUARDIAN_TOKEN: "0123456789abcdef0123" };

test("--probe prints one line per capability and exits 0 here", { timeout: 120_000 }, () => {
  for (const binary of [bin.plain, bin.asan]) {
    const r = spawnSync(binary, ["--probe"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const names = r.stdout.trim().split("\n").map((l) => l.split(" ").slice(0, 3).join(" "));
    assert.deepEqual(names, [
      "proc ok core", "pidfd_open ok optional", "pidfd_send_signal ok optional", "pty ok core", "subreaper ok core", "splice ok optional",
    ]);
  }
});

test("usage errors: one line on stderr, status 2", { timeout: 120_000 }, () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [["--mode", "tty", "--socket", "/tmp/x", "--", "true"], token, /--mode must be pipe or pty, got: tty/],
    [["--socket", "/tmp/x"], token, /no command given after --/],
    [["--socket", "/tmp/x", "--", "true"], {}, /CORRAL_GUARDIAN_TOKEN must hold 16 to 255 characters/],
    [["--grace", "-5", "--socket", "/tmp/x", "--", "true"], token, /value out of range for: --grace/],
    [["--bogus", "1"], token, /unknown option: --bogus/],
    [["--mode", "pty", "--spill-stdout", "/tmp/f", "--socket", "/tmp/x", "--", "true"], token, /spill files need --mode pipe/],
  ];
  for (const [args, env, message] of cases) {
    const r = spawnSync(bin.plain, args, { encoding: "utf8", env: { ...process.env, ...env } });
    assert.equal(r.status, 2, args.join(" "));
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split("\n").length, 1);
    assert.match(r.stderr, /^corral-guardian: /);
  }
  const long = spawnSync(bin.plain, ["--socket", "/tmp/" + "x".repeat(200), "--", "true"], { encoding: "utf8", env: { ...process.env, ...token } });
  assert.equal(long.status, 1);
  assert.match(long.stderr, /socket path is longer than 107 bytes/);
});

test("no owner within --connect-timeout: the guardian exits without starting the child, socket removed", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const socket = path.join(dir, "g.sock");
  const marker = path.join(dir, "ran");
  const child = spawn(bin.asan, ["--socket", socket, "--connect-timeout", "200", "--", "touch", marker], {
    env: { ...process.env, ...token },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  assert.equal(code, 0, stderr);
  assert.equal(existsSync(socket), false);
  assert.equal(existsSync(marker), false);
});

test("SIGTERM to the guardian: it terminates its tree, then exits", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sh", "-c", "trap '' TERM; sleep 1000 & wait"], mode: "pipe", graceMs: 100 }, bin.plain);
  const started = await g.started;
  process.kill(g.pid, "SIGTERM");
  assert.equal((await g.processExit)?.code, 0);
  await waitFor(() => !isAlive(started.pid), { what: "the child to be gone" });
});
