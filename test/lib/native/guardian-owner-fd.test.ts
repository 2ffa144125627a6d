// A guardian over its owner's own connection: inherited (`--owner-fd`, what
// run and collect use), the socket pair that is the guardian's descriptor 3;
// or made by the guardian to the owner's private listener (`--owner-connect`,
// the same under Deno). It runs a child and reports its exit as a
// socket-connected one does, ends the tree when that connection goes, and
// refuses the options that need a socket. The sanitizer build, so a memory
// error fails the test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer, type Socket as NetSocket } from "node:net";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FrameDecoder } from "../../../lib/core/frame.ts";
import { spawnGuardian } from "../../../lib/supervise/guardian/launch.ts";
import { Ev } from "../../../lib/supervise/guardian/protocol.ts";
import { buildGuardian, python, tempDir } from "../../support/guardian-fixture.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

const bin = buildGuardian();
const env = { ...process.env, ASAN_OPTIONS: "abort_on_error=1:detect_leaks=1", UBSAN_OPTIONS: "halt_on_error=1:print_stacktrace=1" };

test("--owner-fd: the child's exit comes over the inherited connection, and no socket is made", { timeout: 60_000 }, async () => {
  const g = spawnGuardian({ argv: ["sh", "-c", "echo hi; exit 3"], mode: "pipe", stdout: "pipe", stderr: "pipe" }, { binary: bin.asan, env });
  assert.equal(g.socketPath, null);
  assert.throws(() => g.reconnectPath, /no socket to reconnect to/);
  let out = "";
  g.on("output", (_stream, bytes) => (out += Buffer.from(bytes).toString()));
  const argv = readFileSync(`/proc/${g.pid}/cmdline`, "utf8").split("\0");
  assert.ok(argv.includes("--owner-fd") && !argv.includes("--socket"), argv.join(" "));
  const exited = await g.exited;
  assert.equal(exited.code, 3);
  await waitFor(() => out === "hi\n", { timeoutMs: 30_000, what: "the child's output" });
  g.detach();
  const exit = await g.processExit;
  assert.deepEqual(exit, { code: 0, signal: null }, "the sanitizer build exited cleanly");
});

test("--owner-fd: the owner's connection closing ends the child, as a lost socket owner does", { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const pidFile = path.join(dir, "child.pid");
  const g = spawnGuardian({ argv: ["sh", "-c", 'echo $$ > "$0"; exec sleep 300', pidFile], mode: "pipe", graceMs: 200 }, { binary: bin.asan, env });
  await g.started;
  const child = await waitFor(() => {
    try {
      return Number(readFileSync(pidFile, "utf8")) || undefined;
    } catch {
      return undefined; // not written yet
    }
  }, { timeoutMs: 30_000, what: "the child's pid file" });
  assert.ok(isAlive(child));
  g.detach(); // the owner goes: its end of the socket pair closes
  const exit = await g.processExit;
  assert.deepEqual(exit, { code: 0, signal: null });
  await waitFor(() => !isAlive(child), { timeoutMs: 30_000, what: "the child to be ended" });
});

test("--owner-fd goes without --socket, --ready-fd and --adoptable: usage error, status 2", () => {
  const token = { ...env, CORRAL_GUARDIAN_TOKEN: "0123456789abcdef0123" };
  for (const [extra, message] of [
    [["--socket", "/nonexistent/g.sock"], /--owner-fd goes without --socket and --ready-fd/],
    [["--ready-fd", "4"], /--owner-fd goes without --socket and --ready-fd/],
    [["--adoptable"], /--adoptable needs --socket/],
  ] as const) {
    const r = spawnSync(bin.asan, ["--owner-fd", "3", ...extra, "--", "true"], { env: token, encoding: "utf8" });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
  }
});

test("--owner-fd: a guardian that exits before its welcome is reported with its status and last diagnostics", { timeout: 60_000 }, async (t) => {
  const fake = path.join(tempDir(t), "fake-guardian");
  writeFileSync(fake, '#!/bin/sh\necho "corral-guardian: cannot do that here" >&2\nexit 2\n', { mode: 0o755 });
  const g = spawnGuardian({ argv: ["true"], mode: "pipe", stderr: "pipe" }, { binary: fake, env });
  await assert.rejects(g.ready, /the guardian exited with status 2 before it was ready: corral-guardian: cannot do that here/);
  await g.processExit;
});

test("--owner-fd: no token, and the child starts before the owner sends anything", { timeout: 60_000 }, async () => {
  const noToken: Record<string, string | undefined> = { ...env, CORRAL_GUARDIAN_TOKEN: undefined };
  const child = spawn(bin.asan, ["--owner-fd", "3", "--mode", "pipe", "--", "sh", "-c", "exit 5"], { env: noToken, stdio: ["ignore", "ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const decoder = new FrameDecoder(1 << 20);
  const tags: number[] = [];
  const connection = child.stdio[3] as NetSocket;
  connection.on("data", (chunk: Buffer) => tags.push(...decoder.push(chunk).map((f) => f.tag)));
  await waitFor(() => tags.includes(Ev.exited), { timeoutMs: 30_000, what: "the exited event, with nothing sent" });
  assert.equal(tags[0], Ev.welcome, `the welcome first: ${tags.join(",")}`);
  connection.destroy(); // the owner goes: the guardian exits
  const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  assert.equal(code, 0, stderr);
});

// --owner-connect PATH (what run and collect use under Deno, whose spawn
// passes no fd 3): the guardian makes the owner's connection itself, to a
// listener in the owner's private directory, and then it is as --owner-fd.

test("--owner-connect goes without --socket, --ready-fd, --owner-fd and --adoptable: usage error, status 2", () => {
  for (const [extra, message] of [
    [["--socket", "/nonexistent/g.sock"], /--owner-connect goes without --socket and --ready-fd/],
    [["--ready-fd", "4"], /--owner-connect goes without --socket and --ready-fd/],
    [["--owner-fd", "3"], /--owner-fd and --owner-connect do not go together/],
    [["--adoptable"], /--adoptable needs --socket \(nothing can reconnect over --owner-connect\)/],
  ] as const) {
    const r = spawnSync(bin.asan, ["--owner-connect", "/nonexistent/o.sock", ...extra, "--", "true"], { env, encoding: "utf8" });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
  }
});

test("--owner-connect to a path that is missing, refuses or is too long: status 1, the path and why, and no child started", (t) => {
  const dir = tempDir(t);
  const marker = path.join(dir, "child-ran");
  const refusing = path.join(dir, "bound-not-listening.sock");
  // A socket bound but never listened on: connect(2) is refused.
  const bound = spawnSync(python, ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", refusing]);
  assert.equal(bound.status, 0, String(bound.stderr));
  const plainFile = path.join(dir, "plain-file");
  writeFileSync(plainFile, "");
  for (const [target, reason] of [
    [path.join(dir, "no-such.sock"), /No such file or directory/],
    [refusing, /Connection refused/],
    [plainFile, /Connection refused/],
    [path.join(dir, "x".repeat(120)), /File name too long/],
  ] as const) {
    const r = spawnSync(bin.asan, ["--owner-connect", target, "--mode", "pipe", "--", "touch", marker], { env: { ...env, CORRAL_GUARDIAN_TOKEN: undefined }, encoding: "utf8" });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stderr, `corral-guardian: --owner-connect ${target}: ${reason.source}\n`);
    assert.equal(existsSync(marker), false, "the child never started");
  }
});

test("--owner-connect: no token; the child starts at once; the connection closing ends the whole tree, then the guardian", { timeout: 60_000 }, async (t) => {
  const dir = tempDir(t);
  const socketPath = path.join(dir, "owner.sock");
  const pidFile = path.join(dir, "tree.pids");
  const accepted = new Promise<NetSocket>((resolve) => {
    const server = createServer((conn) => {
      server.close(); // exactly one connection, as lib/runtime/deno/guardian-spawn.ts takes it
      resolve(conn);
    });
    server.listen(socketPath);
  });
  const script = 'sleep 300 & echo $! >> "$0"; setsid sleep 300 & echo $! >> "$0"; echo $$ >> "$0"; wait';
  const noToken: Record<string, string | undefined> = { ...env, CORRAL_GUARDIAN_TOKEN: undefined };
  await waitFor(() => existsSync(socketPath), { what: "the listener's socket" });
  const child = spawn(bin.asan, ["--owner-connect", socketPath, "--mode", "pipe", "--grace", "200", "--", "sh", "-c", script, pidFile], { env: noToken, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  const connection = await accepted;
  const decoder = new FrameDecoder(1 << 20);
  const tags: number[] = [];
  connection.on("data", (chunk: Buffer) => tags.push(...decoder.push(chunk).map((f) => f.tag)));
  await waitFor(() => tags.includes(Ev.started), { timeoutMs: 30_000, what: "the started event, with nothing sent" });
  assert.equal(tags[0], Ev.welcome, `the welcome first: ${tags.join(",")}`);
  const pids = await waitFor(() => {
    const found = existsSync(pidFile) ? readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number) : [];
    return found.length >= 3 ? found : undefined;
  }, { timeoutMs: 30_000, what: "the tree's pid file" });
  assert.ok(pids.every(isAlive), "the tree runs");
  connection.destroy(); // the owner goes
  assert.equal(await exited, 0, stderr);
  await waitFor(() => !pids.some(isAlive), { timeoutMs: 30_000, what: `the tree (${pids.join(", ")}) to be gone` });
});
