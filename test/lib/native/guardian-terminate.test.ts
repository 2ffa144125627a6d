// terminate is a census (issue 3): a child that setsid()s and double-forks,
// then ignores SIGTERM, is gone after terminate with a confirmed receipt;
// the negative control (plain process-group kill) leaves it running. Also:
// stop/continue events, and an owner SIGKILLed mid-run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { buildGuardian, escapeeScript, lockIsFree, python, startGuardian, tempDir } from "../../support/guardian-fixture.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";
import { repoRoot } from "../../support/corral-cli.ts";

const bin = buildGuardian();

function readPid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  return Number(readFileSync(file, "utf8"));
}

test("a setsid + double-fork escapee that ignores SIGTERM is gone after terminate, receipt confirmed", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const pidfile = path.join(dir, "escapee.pid");
  const g = startGuardian(t, { argv: [python, escapeeScript(dir), pidfile], mode: "pipe" }, bin.plain, dir);
  const started = await g.started;
  const escapee = await waitFor(() => readPid(pidfile), { what: "the escapee's pid file" });
  assert.notEqual(escapee, started.pid);
  const receipt = await g.terminate(200);
  assert.equal(receipt.status, "confirmed", JSON.stringify(receipt));
  assert.equal(receipt.forced, true, "SIGTERM was ignored, so SIGKILL was needed");
  const pids = receipt.members.map((m) => m.pid);
  assert.ok(pids.includes(escapee), `receipt lists the escapee ${escapee}: ${pids.join(",")}`);
  assert.ok(pids.includes(started.pid));
  assert.equal(isAlive(escapee), false);
  assert.deepEqual(await g.exited, { code: null, signal: 9, core: false });
  assert.deepEqual((await g.terminate(0)).members, [], "terminate is idempotent: nothing is left");
});

test("negative control: a process-group kill leaves the escapee running", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const pidfile = path.join(dir, "escapee.pid");
  const child = spawn(python, [escapeeScript(dir), pidfile], { detached: true, stdio: "ignore" });
  const escapee = await waitFor(() => readPid(pidfile), { what: "the escapee's pid file" });
  t.after(async () => {
    if (isAlive(escapee)) process.kill(escapee, "SIGKILL");
    await waitFor(() => !isAlive(escapee), { what: "the escapee to die" });
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  process.kill(-(child.pid as number), "SIGKILL");
  await exited;
  assert.equal(isAlive(escapee), true, "the escapee left the process group and survived");
});

test("stop and continue events come from waitpid", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sleep", "1000"], mode: "pipe" }, bin.plain);
  const events: string[] = [];
  const stopped = new Promise<number>((resolve) => g.on("stopped", (s) => (events.push("stopped"), resolve(s))));
  const continued = new Promise<void>((resolve) => g.on("continued", () => (events.push("continued"), resolve())));
  const { pid } = await g.started;
  process.kill(pid, "SIGSTOP");
  assert.equal(await stopped, 19);
  process.kill(pid, "SIGCONT");
  await continued;
  assert.deepEqual(events, ["stopped", "continued"]);
  const receipt = await g.terminate(5000);
  assert.equal(receipt.status, "confirmed");
  assert.equal(receipt.forced, false, "sleep dies of SIGTERM within the grace");
  assert.deepEqual(await g.exited, { code: null, signal: 15, core: false });
});

test("the owner is SIGKILLed mid-run: the guardian still terminates the tree", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const pidfile = path.join(dir, "escapee.pid");
  const lock = path.join(dir, "lock");
  const ownerScript = path.join(dir, "owner.mts");
  const client = path.join(repoRoot, "lib", "supervise", "guardian", "launch.ts");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(ownerScript, `
import { spawnGuardian } from ${JSON.stringify(client)};
const g = spawnGuardian({ argv: process.argv.slice(3), mode: "pipe", graceMs: 100 }, { stateDir: process.argv[2], binary: ${JSON.stringify(bin.plain)} });
const s = await g.started;
process.stdout.write(JSON.stringify({ guardian: g.pid, child: s.pid }) + "\\n");
setInterval(() => {}, 1000);
`);
  const owner = spawn(process.execPath, ["--import", "tsx", ownerScript, dir, python, escapeeScript(dir), pidfile, lock], {
    stdio: ["ignore", "pipe", "inherit"],
    cwd: repoRoot,
  });
  const ownerExit = new Promise((resolve) => owner.on("exit", resolve));
  t.after(async () => {
    owner.kill("SIGKILL");
    await ownerExit;
  });
  let out = "";
  owner.stdout.on("data", (c: Buffer) => (out += c.toString()));
  const pids = await waitFor(() => out.includes("\n") && (JSON.parse(out) as { guardian: number; child: number }), {
    what: "the owner to report its guardian",
  });
  const escapee = await waitFor(() => readPid(pidfile), { what: "the escapee (holding the lock) to start" });
  assert.equal(lockIsFree(lock), false, "the deepest descendant holds the lock");
  owner.kill("SIGKILL");
  await ownerExit;
  await waitFor(() => lockIsFree(lock), { what: "the lock to be released (the escapee killed)", intervalMs: 100 });
  await waitFor(() => !isAlive(pids.guardian), { what: "the guardian to exit" });
  assert.equal(isAlive(escapee), false);
  assert.equal(isAlive(pids.child), false);
});

test("terminate with a first signal: SIGINT alone reaches the tree (no SIGTERM behind it), and a child that handles it exits 0", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const log = path.join(dir, "signals.log");
  const ready = path.join(dir, "ready");
  // Records every signal; on SIGINT it cleans up for a while, then exits 0.
  const script = [
    "import signal, sys, time",
    `log = open(${JSON.stringify(log)}, "a", buffering=1)`,
    "def on_term(n, f): log.write('TERM\\n')",
    "def on_int(n, f):",
    "    log.write('INT\\n'); time.sleep(0.5); sys.exit(0)",
    "signal.signal(signal.SIGTERM, on_term)",
    "signal.signal(signal.SIGINT, on_int)",
    `open(${JSON.stringify(ready)}, "w").close()`,
    "while True: time.sleep(1)",
  ].join("\n");
  const g = startGuardian(t, { argv: [python, "-c", script], mode: "pipe" }, bin.plain, dir);
  await g.started;
  await waitFor(() => existsSync(ready), { what: "the child's handlers" });
  const receipt = await g.terminate(10_000, "SIGINT");
  assert.equal(receipt.status, "confirmed", JSON.stringify(receipt));
  assert.equal(receipt.forced, false);
  assert.deepEqual(await g.exited, { code: 0, signal: null, core: false });
  assert.equal(readFileSync(log, "utf8"), "INT\n");
});

// After the child's exit the guardian skips the census when it has no child
// left at all (issue 9, start-up): the tree is provably empty. An orphan of
// the tree is the guardian's child (subreaper), so it must still be found.
test("the child exited leaving a setsid orphan: terminate after the exit still finds and kills it", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const pidfile = path.join(dir, "orphan.pid");
  const script = `setsid sh -c 'trap "" TERM; echo $$ > "$0.tmp"; mv "$0.tmp" "$0"; exec sleep 300' "${pidfile}" & exit 0`;
  const g = startGuardian(t, { argv: ["sh", "-c", script], mode: "pipe" }, bin.plain, dir);
  assert.deepEqual(await g.exited, { code: 0, signal: null, core: false });
  const orphan = await waitFor(() => readPid(pidfile), { what: "the orphan's pid file" });
  assert.equal(isAlive(orphan), true);
  const receipt = await g.terminate(200);
  assert.equal(receipt.status, "confirmed", JSON.stringify(receipt));
  assert.deepEqual(receipt.members.map((m) => m.pid), [orphan], "the orphan is the one member");
  assert.equal(isAlive(orphan), false);
});

test("the child exited and left nothing: terminate confirms an empty tree", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["true"], mode: "pipe" }, bin.plain);
  assert.deepEqual(await g.exited, { code: 0, signal: null, core: false });
  const receipt = await g.terminate(5000);
  assert.deepEqual({ status: receipt.status, forced: receipt.forced, members: receipt.members, uncertain: receipt.uncertain },
    { status: "confirmed", forced: false, members: [], uncertain: [] });
});
