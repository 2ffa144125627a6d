// Signals sent to `corral run`/`collect` (DESIGN.md 4.1, 4.8): forwarded to
// the child's tree, and when the child dies of one, corral dies of the same
// signal after its cleanup (as GNU timeout), the facts still recording it; a
// child that handles the signal and exits keeps its own status. Both
// backends: the guardian and the process group (CORRAL_GUARDIAN=never).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corralCommand, repoRoot } from "../../support/corral-cli.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";
import { agentFor, jobList } from "../../support/jobs-fixture.ts";

const guardianBuilt = existsSync(path.join(repoRoot, "native", "build", "corral-guardian"));
const backends = [
  { name: "guardian", env: { CORRAL_GUARDIAN: "always" }, skip: guardianBuilt ? false : "the guardian is not built (no C compiler)" },
  { name: "process group", env: { CORRAL_GUARDIAN: "never" }, skip: false },
] as const;

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Starts corral in `dir`, waits for the child to write `dir/ready`, sends
 * `signal` to corral, and returns how corral ended. Core dumps are off
 * (ulimit -c 0): corral dying of SIGQUIT must not leave a core file.
 */
async function signalWhenReady(dir: string, env: Record<string, string>, args: readonly string[], signal: NodeJS.Signals): Promise<Ended> {
  const child = spawn("sh", ["-c", 'ulimit -c 0; exec "$@"', "sh", ...corralCommand(), ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => err.push(c));
  const ended = new Promise<Ended>((resolve) => {
    child.on("close", (code, sig) => resolve({ code, signal: sig, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
  try {
    await waitFor(() => existsSync(path.join(dir, "ready")), { timeoutMs: 60_000, what: "the child to be running (its ready file)" });
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  child.kill(signal);
  return ended;
}

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-signals-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The pid the child wrote to `dir/pid`, so the test can check it is gone (and kill it if not). */
function childPid(dir: string): number {
  return Number(readFileSync(path.join(dir, "pid"), "utf8").trim());
}

for (const backend of backends) {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const) {
    test(`${backend.name}: ${signal} to run kills the child, and corral dies of ${signal}; --facts records it`, { skip: backend.skip }, async (t) => {
      const dir = tempDir(t);
      const ended = await signalWhenReady(dir, backend.env, ["run", "--facts", "facts.json", "--", "sh", "-c", "echo $$ > pid; touch ready; exec sleep 600"], signal);
      const pid = childPid(dir);
      t.after(() => isAlive(pid) && process.kill(pid, "SIGKILL"));
      assert.equal(ended.signal, signal, `corral should die of ${signal}; it exited ${ended.code}: ${ended.stderr}`);
      assert.equal(isAlive(pid), false, "the child is gone");
      const facts = JSON.parse(readFileSync(path.join(dir, "facts.json"), "utf8")) as { code: number | null; signal: string | null };
      assert.deepEqual([facts.code, facts.signal], [null, signal]);
    });
  }

  test(`${backend.name}: a child that handles SIGINT and exits 0 gives 0 (no SIGTERM follows the forwarded SIGINT)`, { skip: backend.skip }, async (t) => {
    const dir = tempDir(t);
    // The handler takes a while (a busy loop, no new process): a SIGTERM sent right after the
    // SIGINT, as an earlier terminate did, kills the shell before it exits 0.
    const cleanup = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done";
    const script = `trap '${cleanup}; echo handled; exit 0' INT; echo $$ > pid; touch ready; while :; do sleep 0.1; done`;
    const ended = await signalWhenReady(dir, backend.env, ["run", "--facts", "facts.json", "--", "sh", "-c", script], "SIGINT");
    assert.deepEqual([ended.code, ended.signal], [0, null], ended.stderr);
    assert.equal(ended.stdout, "handled\n");
    const facts = JSON.parse(readFileSync(path.join(dir, "facts.json"), "utf8")) as { code: number | null; signal: string | null; forced: boolean };
    assert.deepEqual([facts.code, facts.signal, facts.forced], [0, null, false]);
  });

  test(`${backend.name}: a child that handles SIGTERM and exits 3 gives 3`, { skip: backend.skip }, async (t) => {
    const dir = tempDir(t);
    const script = `trap 'exit 3' TERM; echo $$ > pid; touch ready; while :; do sleep 0.1; done`;
    const ended = await signalWhenReady(dir, backend.env, ["run", "--", "sh", "-c", script], "SIGTERM");
    assert.deepEqual([ended.code, ended.signal], [3, null], ended.stderr);
  });

  test(`${backend.name}: collect --json prints its report, then dies of the SIGINT that killed the child`, { skip: backend.skip }, async (t) => {
    const dir = tempDir(t);
    const ended = await signalWhenReady(dir, backend.env, ["collect", "--json", "--", "sh", "-c", "echo started; echo $$ > pid; touch ready; exec sleep 600"], "SIGINT");
    assert.equal(ended.signal, "SIGINT", `exited ${ended.code}: ${ended.stderr}`);
    const report = JSON.parse(ended.stdout) as { exit: { signal: string | null }; stdout: { head: string } };
    assert.equal(report.exit.signal, "SIGINT");
    assert.equal(report.stdout.head, "started\n");
  });

  test(`${backend.name}: a child that ignores SIGINT is killed after the grace, and corral still dies of SIGINT`, { skip: backend.skip }, async (t) => {
    const dir = tempDir(t);
    const script = `trap '' INT; echo $$ > pid; touch ready; while :; do sleep 0.1; done`;
    const ended = await signalWhenReady(dir, backend.env, ["run", "--grace", "300ms", "--facts", "facts.json", "--", "sh", "-c", script], "SIGINT");
    const pid = childPid(dir);
    t.after(() => isAlive(pid) && process.kill(pid, "SIGKILL"));
    assert.equal(ended.signal, "SIGINT", `exited ${ended.code}: ${ended.stderr}`);
    const facts = JSON.parse(readFileSync(path.join(dir, "facts.json"), "utf8")) as { signal: string | null; forced: boolean };
    assert.deepEqual([facts.signal, facts.forced], ["SIGKILL", true]);
    assert.equal(isAlive(pid), false);
  });
}

test("a child killed by a signal nobody forwarded: corral exits 128+N, it does not die of it", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-signals-"));
  try {
    const child = spawn(corralCommand()[0] as string, [...corralCommand().slice(1), "run", "--", "sh", "-c", "kill -INT $$"], { cwd: dir, stdio: "ignore" });
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on("close", (c, s) => resolve([c, s])));
    assert.deepEqual([code, signal], [130, null]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const how of ["run --tty", "fg"] as const) {
  test(`${how}: SIGINT to the client ends the job with SIGINT, and the client dies of SIGINT`, { skip: guardianBuilt ? false : "--tty jobs need the guardian" }, async (t) => {
    const agent = agentFor(t, "signals-job");
    const ready = path.join(agent.dir, "ready");
    const script = `echo $$ > ${agent.dir}/pid; touch ${ready}; exec sleep 600`;
    let clientPid = 0;
    let running;
    if (how === "run --tty") {
      running = agent.run(["run", "--tty", "--", "sh", "-c", script], { onSpawn: (pid) => (clientPid = pid) });
    } else {
      await agent.ok(["run", "--bg", "--", "sh", "-c", script]);
      running = agent.run(["fg", "%1"], { onSpawn: (pid) => (clientPid = pid) });
    }
    await waitFor(() => existsSync(ready), { timeoutMs: 60_000, what: "the job to run" });
    // Only an attached job gets what the client forwards: wait until the agent says so.
    await waitFor(async () => (await jobList(agent)).some((j) => j.attached), { what: "the job attached" });
    process.kill(clientPid, "SIGINT");
    const ended = await running;
    assert.equal(ended.signal, "SIGINT", `exited ${ended.code}: ${ended.stderr}`);
    // A foreground job that ended is gone from the table (as in a shell); its process too.
    await waitFor(() => !isAlive(childPid(agent.dir)), { what: "the job's process gone" });
  });
}
