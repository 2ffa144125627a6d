// Shared by the guardian tests: the binaries (built here, the sanitizer one
// too: if a compiler exists they must build), a private state dir per test,
// a guardian that is always gone when the test ends, and an escaping tree.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestContext } from "node:test";
import { repoRoot } from "./corral-cli.ts";
import type { Guardian } from "../../lib/supervise/guardian/client.ts";
import { spawnGuardian } from "../../lib/supervise/guardian/launch.ts";
import type { GuardianLaunch } from "../../lib/supervise/guardian/protocol.ts";

/**
 * Builds native/ (plain and sanitizer) once per test file; returns both
 * paths. CORRALTEST_GUARDIAN_ASAN=1 runs every guardian test on the
 * sanitizer build (slower; the fuzz tests always use it).
 */
export function buildGuardian(): { plain: string; asan: string } {
  execFileSync("make", ["-s", "-C", path.join(repoRoot, "native"), "all", "sanitize"], { stdio: "inherit" });
  const asan = path.join(repoRoot, "native", "build", "corral-guardian-asan");
  const plain = process.env.CORRALTEST_GUARDIAN_ASAN === "1" ? asan : path.join(repoRoot, "native", "build", "corral-guardian");
  return { plain, asan };
}

/** The real interpreter behind a pyenv shim: a shim costs a shell start per use. */
export const python = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim() || "python3";

/** A fresh temp dir, removed when the test ends. */
export function tempDir(t: TestContext, prefix = "corral-guardian-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Starts a guardian whose owner is this test. When the test ends the guardian
 * is shut down (terminate, grace 0) and we wait for its exit, so nothing of
 * its tree outlives the test.
 */
export function startGuardian(t: TestContext, launch: GuardianLaunch, binary: string, dir = tempDir(t)): Guardian {
  const env = { ...process.env, ASAN_OPTIONS: "abort_on_error=1", UBSAN_OPTIONS: "halt_on_error=1:print_stacktrace=1" };
  const g = spawnGuardian(launch, { stateDir: dir, binary, env });
  t.after(async () => {
    await g.shutdown(0).catch(() => {});
    g.detach();
    const exit = await g.processExit;
    // A sanitizer report makes the guardian exit non-zero (or abort): that fails the test.
    if (exit && (exit.code ?? 0) !== 0) throw new Error(`the guardian exited with status ${exit.code}`);
    if (exit?.signal && exit.signal !== "SIGKILL") throw new Error(`the guardian died of ${exit.signal}`);
  });
  return g;
}

/** Collects a guardian's output per stream. */
export function collectOutput(g: Guardian): { bytes: (stream?: 1 | 2) => Buffer; text: (stream?: 1 | 2) => string } {
  const chunks: Record<1 | 2, Buffer[]> = { 1: [], 2: [] };
  g.on("output", (stream, bytes) => chunks[stream].push(Buffer.from(bytes)));
  const bytes = (stream: 1 | 2 = 1) => Buffer.concat(chunks[stream]);
  return { bytes, text: (stream: 1 | 2 = 1) => bytes(stream).toString("utf8") };
}

/**
 * A python script that escapes: its child calls setsid() and forks again;
 * the grandchild ignores SIGTERM, optionally holds an exclusive flock on
 * argv[2], then writes its pid to argv[1] (atomically) and sleeps. The
 * script's own process ignores SIGTERM too and waits.
 */
export function escapeeScript(dir: string): string {
  const file = path.join(dir, "escapee.py");
  writeFileSync(file, `
import fcntl, os, signal, sys, time
pidfile = sys.argv[1]
lock = sys.argv[2] if len(sys.argv) > 2 else None
signal.signal(signal.SIGTERM, signal.SIG_IGN)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        if lock:
            f = open(lock, "w")
            fcntl.flock(f, fcntl.LOCK_EX)
        with open(pidfile + ".tmp", "w") as out:
            out.write(str(os.getpid()))
        os.rename(pidfile + ".tmp", pidfile)
        while True:
            signal.pause()
    os._exit(0)
os.wait()
while True:
    signal.pause()
`);
  return file;
}

/** True when an exclusive flock on `file` can be taken now (its holder is gone). */
export function lockIsFree(file: string): boolean {
  const r = spawnSync(python, ["-c", "import fcntl,sys; fcntl.flock(open(sys.argv[1],'w'), fcntl.LOCK_EX|fcntl.LOCK_NB)", file]);
  return r.status === 0;
}
