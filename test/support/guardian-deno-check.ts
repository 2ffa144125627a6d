// Run under Deno by test/lib/native/guardian-spawn-deno.test.ts: a guardian
// started as run and collect start it under Deno (lib/runtime/
// deno/guardian-spawn.ts: Deno.Command, and the one connection it makes to
// our private listener, --owner-connect), driven as run and collect drive it.
// argv: the guardian binary, a scratch dir. $TMPDIR is a directory of the
// scratch dir, so that what the listener leaves behind can be seen.
// Prints one JSON object: { checks: { name: true | "what went wrong" } }.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnGuardian } from "../../lib/supervise/guardian/launch.ts";
import type { Guardian } from "../../lib/supervise/guardian/client.ts";

const [binary, dir] = process.argv.slice(2) as [string, string];
const checks: Record<string, true | string> = {};

/** The listeners' directories left in $TMPDIR (there must be none between checks). */
const leftDirs = () => readdirSync(os.tmpdir()).filter((name) => name.startsWith("corral-guardian-"));

async function check(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    const left = leftDirs();
    if (left.length > 0) throw new Error(`left behind in ${os.tmpdir()}: ${left.join(", ")}`);
    checks[name] = true;
  } catch (error) {
    checks[name] = error instanceof Error ? error.message : String(error);
  }
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** Resolves with what `ready` returns once it is neither undefined nor false, or throws after 30 s. */
async function until<T>(ready: () => T | undefined | false, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = ready();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Alive and not a zombie (DESIGN.md 4.2). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function collected(g: Guardian): () => string {
  const chunks: Uint8Array[] = [];
  g.on("output", (_stream, bytes) => chunks.push(bytes));
  return () => Buffer.concat(chunks).toString("utf8");
}

/** Pids written one a line to `file`, once there are `count`. */
function pidsIn(file: string, count: number): number[] | undefined {
  try {
    const pids = readFileSync(file, "utf8").split("\n").filter((l) => /^\d+$/.test(l)).map(Number);
    return pids.length >= count ? pids : undefined;
  } catch {
    return undefined;
  }
}

await check("started through Deno.Command with --owner-connect, not node:child_process; the listener gone once connected", async () => {
  const g = spawnGuardian({ argv: ["sleep", "300"], mode: "pipe", graceMs: 200 }, { binary });
  await g.started;
  expect(g.process?.constructor.name === "DenoGuardianProcess", `the process is a ${g.process?.constructor.name}`);
  const argv = readFileSync(`/proc/${g.pid}/cmdline`, "utf8").split("\0");
  const at = argv.indexOf("--owner-connect");
  expect(at > 0 && !argv.includes("--owner-fd") && !argv.includes("--socket"), argv.join(" "));
  expect(leftDirs().length === 0, `the listener's directory is still there once connected: ${leftDirs().join(", ")}`);
  await g.shutdown(200);
  g.detach();
  await g.processExit;
});

await check("output and exit status; a clean exit once the owner goes", async () => {
  const g = spawnGuardian({ argv: ["sh", "-c", "echo hi; echo there >&2; exit 3"], mode: "pipe", stdout: "pipe", stderr: "pipe" }, { binary });
  const out = collected(g);
  const exited = await g.exited;
  expect(exited.code === 3 && exited.signal === null, `exited ${JSON.stringify(exited)}`);
  await until(() => out().split("\n").sort().join(",") === ",hi,there", `the output (${JSON.stringify(out())})`);
  g.detach();
  const exit = await g.processExit;
  expect(exit?.code === 0 && exit.signal === null, `the guardian exited ${JSON.stringify(exit)}`);
});

await check("a child killed by a signal is reported with that signal", async () => {
  const g = spawnGuardian({ argv: ["sh", "-c", "kill -USR1 $$"], mode: "pipe" }, { binary });
  const exited = await g.exited;
  expect(exited.code === null && exited.signal === 10, `exited ${JSON.stringify(exited)}`);
  g.detach();
  await g.processExit;
});

await check("4 MiB of input reaches the child whole, in order, at the child's pace", async () => {
  const g = spawnGuardian({ argv: ["sh", "-c", "sleep 0.2; wc -c"], mode: "pipe", stdin: "pipe", stdout: "pipe" }, { binary });
  const out = collected(g);
  const block = new Uint8Array(64 * 1024).fill(120);
  for (let i = 0; i < 64; i++) g.write(block);
  await g.closeStdin();
  await g.exited;
  await until(() => out().trim() === String(4 * 1024 * 1024), `wc -c to say 4194304 (${JSON.stringify(out())})`);
  g.detach();
  await g.processExit;
});

await check("the owner's connection closing ends the whole tree, grandchildren and a setsid escapee too", async () => {
  const pidFile = path.join(dir, "tree.pids");
  const script = 'sleep 300 & echo $! >> "$0"; setsid sleep 300 & echo $! >> "$0"; echo $$ >> "$0"; wait';
  const g = spawnGuardian({ argv: ["sh", "-c", script, pidFile], mode: "pipe", graceMs: 200 }, { binary });
  await g.started;
  const pids = await until(() => pidsIn(pidFile, 3), "the tree's pid file");
  expect(pids.every(alive), "the tree runs");
  const guardian = g.pid;
  g.detach();
  const exit = await g.processExit;
  expect(exit?.code === 0, `the guardian exited ${JSON.stringify(exit)}`);
  await until(() => !pids.some(alive), `the tree (${pids.join(", ")}) to be gone`);
  expect(!alive(guardian), "the guardian is gone");
});

await check("kill() ends the guardian, and its exit says by which signal", async () => {
  const pidFile = path.join(dir, "killed.pid");
  const g = spawnGuardian({ argv: ["sh", "-c", 'echo $$ > "$0"; exec sleep 300', pidFile], mode: "pipe", graceMs: 200 }, { binary });
  await g.started;
  const [child] = (await until(() => pidsIn(pidFile, 1), "the child's pid file")) as [number];
  expect(g.process!.kill("SIGKILL"), "kill() said it was not sent");
  const exit = await g.processExit;
  expect(exit?.code === null && exit.signal === "SIGKILL", `the guardian exited ${JSON.stringify(exit)}`);
  expect(!g.process!.kill("SIGKILL"), "kill() of a guardian gone says it was not sent");
  // A SIGKILLed guardian cannot end its tree: that is its owner's to do (guardian/pipe-tree.ts), here.
  process.kill(child, "SIGKILL");
  await until(() => !alive(child), "the child to be gone");
});

await check("a guardian that exits before it connects is reported with its status and last diagnostics, and nothing is left", async () => {
  const fake = path.join(dir, "fake-guardian");
  writeFileSync(fake, '#!/bin/sh\necho $$ > "$0.pid"\necho "corral-guardian: cannot do that here" >&2\nexit 2\n', { mode: 0o755 });
  const g = spawnGuardian({ argv: ["true"], mode: "pipe", stderr: "pipe" }, { binary: fake });
  const message = await g.ready.then(() => "ready", (e: Error) => e.message);
  expect(/^the guardian exited with status 2 before it was ready: corral-guardian: cannot do that here$/.test(message), message);
  const [pid] = (await until(() => pidsIn(`${fake}.pid`, 1), "the fake guardian's pid")) as [number];
  expect(!alive(pid), "the fake guardian is gone");
});

await check("a guardian refusing its arguments says why, in one error", async () => {
  const g = spawnGuardian({ argv: ["true"], mode: "pty", captureStdout: true }, { binary });
  const message = await g.ready.then(() => "ready", (e: Error) => e.message);
  expect(/^the guardian exited with status 2 before it was ready: corral-guardian: /.test(message), message);
});

await check("a guardian that cannot be started says which and why, in one error, and nothing is left", async () => {
  const missing = path.join(dir, "no-such-guardian");
  const g = spawnGuardian({ argv: ["true"], mode: "pipe" }, { binary: missing });
  const message = await g.ready.then(() => "ready", (e: Error) => e.message);
  expect(message === `cannot start ${missing}: No such file or directory (os error 2)`, message);
});

console.log(JSON.stringify({ checks }));
