// Run under Bun by test/lib/native/guardian-spawn-bun.test.ts: a guardian
// over its inherited connection started through Bun's own API
// (lib/runtime/bun/guardian-spawn.ts), driven as run and collect drive it.
// argv: the guardian binary, a scratch dir. Prints one JSON object:
// { checks: { name: true | "what went wrong" } }.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnGuardian } from "../../lib/supervise/guardian/launch.ts";
import type { Guardian } from "../../lib/supervise/guardian/client.ts";

const [binary, dir] = process.argv.slice(2) as [string, string];
const checks: Record<string, true | string> = {};

async function check(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    checks[name] = true;
  } catch (error) {
    checks[name] = error instanceof Error ? error.message : String(error);
  }
}

function expect(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** Resolves when `ready` holds, or throws after 30 s. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function collected(g: Guardian): () => string {
  const chunks: Uint8Array[] = [];
  g.on("output", (_stream, bytes) => chunks.push(bytes));
  return () => Buffer.concat(chunks).toString("utf8");
}

await check("started through Bun.spawn, not node:child_process", async () => {
  const g = spawnGuardian({ argv: ["true"], mode: "pipe" }, { binary });
  await g.exited;
  g.detach();
  await g.processExit;
  expect(g.process?.constructor.name === "BunGuardianProcess", `the process is a ${g.process?.constructor.name}`);
});

await check("output and exit status over the inherited connection; a clean exit once the owner goes", async () => {
  const g = spawnGuardian({ argv: ["sh", "-c", "echo hi; exit 3"], mode: "pipe", stdout: "pipe", stderr: "pipe" }, { binary });
  const out = collected(g);
  const exited = await g.exited;
  expect(exited.code === 3, `exit status ${exited.code}`);
  await until(() => out() === "hi\n", "the output");
  g.detach();
  const exit = await g.processExit;
  expect(exit?.code === 0 && exit.signal === null, `the guardian exited ${JSON.stringify(exit)}`);
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

await check("the owner's connection closing ends the child", async () => {
  const pidFile = path.join(dir, "child.pid");
  const g = spawnGuardian({ argv: ["sh", "-c", 'echo $$ > "$0"; exec sleep 300', pidFile], mode: "pipe", graceMs: 200 }, { binary });
  await g.started;
  let child = 0;
  await until(() => {
    try {
      child = Number(readFileSync(pidFile, "utf8")) || 0;
    } catch {
      child = 0;
    }
    return child > 0;
  }, "the child's pid file");
  g.detach();
  const exit = await g.processExit;
  expect(exit?.code === 0, `the guardian exited ${JSON.stringify(exit)}`);
  await until(() => !alive(child), "the child to be ended");
});

await check("kill() ends the guardian, and its exit says by which signal", async () => {
  const g = spawnGuardian({ argv: ["sleep", "300"], mode: "pipe", graceMs: 200 }, { binary });
  await g.started;
  const child = g.child!.pid;
  expect(g.process!.kill("SIGKILL"), "kill() said it was not sent");
  const exit = await g.processExit;
  expect(exit?.code === null && exit.signal === "SIGKILL", `the guardian exited ${JSON.stringify(exit)}`);
  // The child outlives a SIGKILLed guardian only until the guardian's lifeline (its own child, in its group) acts; end it here.
  try {
    process.kill(child, "SIGKILL");
  } catch {
    // gone already
  }
});

await check("a guardian that exits before its welcome is reported with its status and last diagnostics", async () => {
  const fake = path.join(dir, "fake-guardian");
  writeFileSync(fake, '#!/bin/sh\necho "corral-guardian: cannot do that here" >&2\nexit 2\n', { mode: 0o755 });
  const g = spawnGuardian({ argv: ["true"], mode: "pipe", stderr: "pipe" }, { binary: fake });
  const message = await g.ready.then(() => "ready", (e: Error) => e.message);
  expect(/the guardian exited with status 2 before it was ready: corral-guardian: cannot do that here/.test(message), message);
});

await check("a guardian that cannot be started says which and why", async () => {
  const missing = path.join(dir, "no-such-guardian");
  const g = spawnGuardian({ argv: ["true"], mode: "pipe" }, { binary: missing });
  const message = await g.ready.then(() => "ready", (e: Error) => e.message);
  expect(message.startsWith(`cannot start ${missing}: `), message);
});

await check("a Bun without the socket-fd stdio (1.2, 1.3.0) starts the guardian through node:child_process", async () => {
  // Such a Bun refuses the stdio array with ERR_INVALID_ARG_TYPE before it starts anything, as this stand-in does.
  const bun = (globalThis as unknown as { Bun: { spawn: (...args: unknown[]) => unknown } }).Bun;
  const spawn = bun.spawn;
  bun.spawn = (...args: unknown[]) => {
    const stdio = (args[1] as { stdio?: unknown[] } | undefined)?.stdio ?? [];
    if (stdio.includes("socket-fd")) throw Object.assign(new TypeError("stdio must be an array of 'inherit', 'pipe', 'ignore', Bun.file(pathOrFd), number, or null"), { code: "ERR_INVALID_ARG_TYPE" });
    return spawn(...args);
  };
  try {
    const g = spawnGuardian({ argv: ["sh", "-c", "echo old; exit 4"], mode: "pipe", stdout: "pipe" }, { binary });
    const out = collected(g);
    const exited = await g.exited;
    expect(exited.code === 4, `exit status ${exited.code}`);
    await until(() => out() === "old\n", "the output");
    expect(g.process?.constructor.name !== "BunGuardianProcess", "the process is Bun.spawn's");
    g.detach();
    await g.processExit;
  } finally {
    bun.spawn = spawn;
  }
});

console.log(JSON.stringify({ checks }));
