// The process-group backend against real trees: grandchildren that report
// their pids, a child that ignores SIGTERM, a grandchild holding the pipe.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { supervise } from "../../../lib/supervise/supervise.ts";
import { endOf } from "../../../lib/supervise/start.ts";
import { exitStatusOf } from "../../../lib/runtime/signals.ts";
import type { ByteSink } from "../../../lib/supervise/spec.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

/** Collects a child's output in memory; the tests read pids from it. */
class Collected implements ByteSink {
  chunks: Buffer[] = [];
  write(chunk: Uint8Array): boolean {
    this.chunks.push(Buffer.from(chunk));
    return true;
  }
  onDrain(listener: () => void): void {
    listener();
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
  get pids(): number[] {
    return this.text.split("\n").filter((l) => /^\d+$/.test(l)).map(Number);
  }
}

const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", CORRALTEST_SUITE: process.env["CORRALTEST_SUITE"] ?? "" };

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

test("exit code and signal are mirrored; ExitFacts are complete", async () => {
  const out = new Collected();
  const child = await supervise({ argv: ["sh", "-c", "echo out; exit 7"], env, stdout: { sink: out }, graceMs: 2000 });
  const { facts } = await endOf(child);
  assert.equal(facts.code, 7);
  assert.equal(facts.signal, null);
  assert.equal(facts.outputComplete, true);
  assert.equal(facts.forced, false);
  assert.equal(exitStatusOf(facts), 7);
  assert.equal(out.text, "out\n");
  const killed = await supervise({ argv: ["sh", "-c", "kill -USR1 $$"], env, graceMs: 2000 });
  const k = (await endOf(killed)).facts;
  assert.equal(k.signal, "SIGUSR1");
  assert.equal(exitStatusOf(k), 138);
});

test("timeout: 124, the whole tree (background grandchildren) gone on return", async (t) => {
  const out = new Collected();
  const child = await supervise({
    argv: ["sh", "-c", "sleep 600 & echo $!; sleep 600 & echo $!; wait"],
    env,
    stdout: { sink: out },
    graceMs: 5000,
    timeoutMs: 2000,
  });
  const { facts } = await endOf(child);
  t.after(() => killAll(out.pids));
  assert.equal(out.pids.length, 2, `grandchildren reported: ${out.text}`);
  assert.equal(facts.timedOut, true);
  assert.equal(exitStatusOf(facts), 124);
  assert.equal(facts.forced, false);
  for (const pid of [child.pid, ...out.pids]) assert.equal(isAlive(pid), false, `pid ${pid} still alive`);
});

test("a tree that ignores SIGTERM is SIGKILLed after the grace: forced", async (t) => {
  const out = new Collected();
  const child = await supervise({
    argv: ["sh", "-c", "trap '' TERM; sleep 600 & echo $!; echo ready; wait"],
    env,
    stdout: { sink: out },
    graceMs: 300,
  });
  await waitFor(() => out.text.includes("ready"), { what: "the tree to start" });
  t.after(() => killAll(out.pids));
  const receipt = await child.terminate();
  assert.equal(receipt.forced, true);
  assert.equal(receipt.status, "confirmed");
  assert.equal(child.terminate(), child.terminate(), "terminate is idempotent");
  const { facts } = await endOf(child);
  assert.equal(facts.forced, true);
  assert.equal(facts.signal, "SIGKILL");
  for (const pid of [child.pid, ...out.pids]) assert.equal(isAlive(pid), false);
});

test("negative control: killing only the child's pid leaves its grandchildren running", async (t) => {
  const child = spawn("sh", ["-c", "sleep 600 & echo $!; sleep 600 & echo $!; wait"], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
    env,
  });
  let text = "";
  child.stdout.on("data", (c: Buffer) => (text += c.toString()));
  const pids = await waitFor(() => {
    const found = text.split("\n").filter((l) => /^\d+$/.test(l)).map(Number);
    return found.length === 2 ? found : undefined;
  }, { what: "grandchild pids" });
  t.after(() => {
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {
      // gone
    }
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  for (const pid of pids) assert.equal(isAlive(pid), true, `grandchild ${pid} should survive a plain kill`);
  process.kill(-(child.pid as number), "SIGKILL");
  await waitFor(() => pids.every((pid) => !isAlive(pid)), { what: "cleanup" });
});

test("a grandchild holding the pipe: returns within the grace, outputComplete false, leftover gone", async () => {
  const out = new Collected();
  const child = await supervise({
    argv: ["sh", "-c", "sleep 600 & echo $!; echo hi"],
    env,
    stdout: { sink: out },
    graceMs: 500,
  });
  const { facts } = await endOf(child);
  assert.equal(facts.code, 0);
  assert.equal(facts.outputComplete, false);
  assert.match(out.text, /hi\n/);
  const [sleeper] = out.pids;
  assert.ok(sleeper !== undefined);
  assert.equal(isAlive(sleeper), false);
});

test("leaveRunning: what the child left keeps running (the test kills it)", async (t) => {
  const out = new Collected();
  const child = await supervise({
    argv: ["sh", "-c", "sleep 600 >/dev/null & echo $!"],
    env,
    stdout: { sink: out },
    graceMs: 500,
    leaveRunning: true,
  });
  const { facts } = await endOf(child);
  const [sleeper] = out.pids;
  assert.ok(sleeper !== undefined);
  t.after(() => killAll([sleeper]));
  assert.equal(facts.outputComplete, true, "the sleeper does not hold the pipe");
  assert.equal(isAlive(sleeper), true);
});

test("without leaveRunning, what the child left in its group is terminated", async () => {
  const out = new Collected();
  const child = await supervise({
    argv: ["sh", "-c", "(sleep 600 >/dev/null &); sleep 600 >/dev/null & echo $!"],
    env,
    stdout: { sink: out },
    graceMs: 2000,
  });
  const { facts } = await endOf(child);
  assert.equal(facts.code, 0);
  assert.equal(facts.outputComplete, true);
  const [sleeper] = out.pids;
  assert.ok(sleeper !== undefined);
  assert.equal(isAlive(sleeper), false);
});

test("an AbortSignal terminates the tree (not a timeout); a stopped child still dies", async () => {
  const controller = new AbortController();
  const out = new Collected();
  const child = await supervise({
    argv: ["sh", "-c", "echo ready; kill -STOP $$; echo resumed"],
    env,
    stdout: { sink: out },
    graceMs: 5000,
    signal: controller.signal,
  });
  await waitFor(() => out.text.includes("ready"), { what: "the child to start" });
  controller.abort();
  const { facts } = await endOf(child);
  assert.equal(facts.timedOut, false);
  assert.equal(facts.signal, "SIGTERM");
  assert.equal(exitStatusOf(facts), 143);
});

test("a slow sink is not a held pipe: time paused on the sink does not use up the grace", async () => {
  // The sink refuses more after each chunk and drains only after three
  // graces: all output must still arrive, and outputComplete stay true.
  const grace = 200;
  const chunks: Buffer[] = [];
  const slow: ByteSink = {
    write(chunk) {
      chunks.push(Buffer.from(chunk));
      return false;
    },
    onDrain(listener) {
      setTimeout(listener, grace * 3);
    },
  };
  const child = await supervise({
    argv: ["sh", "-c", "head -c 300000 /dev/zero"],
    env,
    stdout: { sink: slow },
    graceMs: grace,
  });
  const { facts } = await endOf(child);
  assert.equal(facts.outputComplete, true);
  assert.equal(Buffer.concat(chunks).length, 300000);
});
