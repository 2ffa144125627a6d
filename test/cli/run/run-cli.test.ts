// `corral run` end to end: the real CLI, real process trees.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corral } from "../../support/corral-cli.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-run-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function pidsIn(text: string): number[] {
  return text.split("\n").filter((l) => /^\d+$/.test(l.trim())).map((l) => Number(l.trim()));
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

test("run mirrors exit codes and signals, and passes stdio through", async () => {
  const ok = await corral(["run", "--", "sh", "-c", "echo out; echo err >&2; exit 3"]);
  assert.equal(ok.code, 3);
  assert.equal(ok.stdout.toString(), "out\n");
  assert.equal(ok.stderr, "err\n");
  assert.equal((await corral(["run", "--", "true"])).code, 0);
  assert.equal((await corral(["run", "--", "sh", "-c", "kill -TERM $$"])).code, 143);
  assert.equal((await corral(["run", "--", "sh", "-c", "kill -KILL $$"])).code, 137);
});

test("run --timeout: 124 with the whole tree gone; --facts records it", async (t) => {
  const dir = tempDir(t);
  const facts = path.join(dir, "facts.json");
  const result = await corral([
    "run", "--timeout", "2s", "--grace", "5s", "--facts", facts, "--",
    "sh", "-c", "sleep 600 & echo $!; sleep 600 & echo $!; wait",
  ]);
  const pids = pidsIn(result.stdout.toString());
  t.after(() => killAll(pids));
  assert.equal(result.code, 124, result.stderr);
  assert.equal(pids.length, 2);
  for (const pid of pids) assert.equal(isAlive(pid), false, `grandchild ${pid} survived`);
  const recorded = JSON.parse(readFileSync(facts, "utf8")) as Record<string, unknown>;
  assert.deepEqual(Object.keys(recorded).sort(), ["code", "durationMs", "forced", "outputComplete", "signal", "signalled", "timedOut"]);
  assert.equal(recorded["timedOut"], true);
  assert.equal(recorded["signalled"], 3, "sh and its two sleeps got SIGTERM");
  assert.equal(recorded["forced"], false);
});

test("run --timeout with a tree ignoring SIGTERM: SIGKILL after the grace, forced", async (t) => {
  const dir = tempDir(t);
  const facts = path.join(dir, "facts.json");
  const result = await corral([
    "run", "--timeout", "1s", "--grace", "300ms", "--facts", facts, "--",
    "sh", "-c", "trap '' TERM; sleep 600 & echo $!; wait",
  ]);
  const pids = pidsIn(result.stdout.toString());
  t.after(() => killAll(pids));
  assert.equal(result.code, 124);
  const recorded = JSON.parse(readFileSync(facts, "utf8")) as { forced: boolean; signal: string };
  assert.equal(recorded.forced, true);
  assert.equal(recorded.signal, "SIGKILL");
  for (const pid of pids) assert.equal(isAlive(pid), false);
});

test("run returns when the child exits, terminating what it left behind", async (t) => {
  // The leftover lets go of the output: with the tree left running, corral still returns and the
  // check fails at once (a leftover holding the pipe would keep this call waiting instead).
  const result = await corral(["run", "--", "sh", "-c", "sleep 600 >/dev/null 2>&1 & echo $!; echo hi"]);
  const pids = pidsIn(result.stdout.toString());
  t.after(() => killAll(pids));
  assert.equal(result.code, 0);
  assert.equal(pids.length, 1);
  assert.equal(isAlive(pids[0] as number), false);
});

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  test(`${signal} sent to corral goes to the child's tree; corral dies of it too, tree gone`, async (t) => {
    const dir = tempDir(t);
    const pidFile = path.join(dir, "pids");
    let corralPid = 0;
    const running = corral(
      ["run", "--grace", "5s", "--", "sh", "-c", `sleep 600 & echo $! > ${pidFile}; echo $$ >> ${pidFile}; wait`],
      { onSpawn: (pid) => (corralPid = pid) },
    );
    const pids = await waitFor(() => {
      try {
        const found = pidsIn(readFileSync(pidFile, "utf8"));
        return found.length === 2 ? found : undefined;
      } catch {
        return undefined;
      }
    }, { what: "the tree to start" });
    t.after(() => killAll(pids));
    process.kill(corralPid, signal);
    const result = await running;
    assert.equal(result.signal, signal, result.stderr);
    for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} survived`);
  });
}

test("SIGINT to corral: background jobs that ignore SIGINT are killed after the grace", async (t) => {
  const dir = tempDir(t);
  const pidFile = path.join(dir, "pids");
  let corralPid = 0;
  const running = corral(
    ["run", "--grace", "300ms", "--", "sh", "-c", `sleep 600 & echo $! > ${pidFile}; wait`],
    { onSpawn: (pid) => (corralPid = pid) },
  );
  const [sleeper] = await waitFor(() => {
    try {
      const found = pidsIn(readFileSync(pidFile, "utf8"));
      return found.length === 1 ? found : undefined;
    } catch {
      return undefined;
    }
  }, { what: "the tree to start" });
  t.after(() => killAll([sleeper as number]));
  process.kill(corralPid, "SIGINT");
  const result = await running;
  assert.equal(result.signal, "SIGINT", result.stderr);
  assert.equal(isAlive(sleeper as number), false);
});

test("127 not found, 126 not executable, bad --cwd: one clear line each", async (t) => {
  const dir = tempDir(t);
  const plain = path.join(dir, "plain.sh");
  writeFileSync(plain, "#!/bin/sh\necho no\n");
  chmodSync(plain, 0o644);
  const cases: [string[], number, RegExp][] = [
    [["run", "--", "no-such-command-corral"], 127, /no-such-command-corral: command not found/],
    [["run", "--", plain], 126, /plain\.sh: permission denied/],
    [["run", "--", dir], 126, /not a regular file/],
    [["run", "--cwd", path.join(dir, "missing"), "--", "true"], 2, /--cwd .*missing: no such directory/],
    [["run", "--cwd", plain, "--", "true"], 2, /not a directory/],
  ];
  for (const [args, status, message] of cases) {
    const result = await corral(args);
    assert.equal(result.code, status, args.join(" "));
    assert.match(result.stderr, message);
    assert.match(result.stderr, /^corral: [^\n]+\n$/);
  }
});

test("every bad flag or value exits 2 with one line", async () => {
  const cases: string[][] = [
    ["run", "--timeout", "abc", "--", "true"],
    ["run", "--timeout", "-1s", "--", "true"],
    ["run", "--grace", "5 parsecs", "--", "true"],
    ["run", "--env", "NOEQUALS", "--", "true"],
    ["run", "--env", "=value", "--", "true"],
    ["run", "--keep-env", "A=B", "--", "true"],
    ["run", "--no-such-flag", "--", "true"],
    ["run"],
    ["collect", "--max-bytes", "12Q", "--", "true"],
    ["collect", "--head-bytes", "lots", "--", "true"],
    ["collect", "--max-bytes", "-5", "--", "true"],
    ["collect", "--spill", "/nonexistent-dir-corral/x", "--", "true"],
  ];
  // In-process: these are refused while the command line is read, before anything starts.
  for (const args of cases) {
    const result = await corralInProcess(args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stderr.trim().split("\n").length, 1, `${args.join(" ")}: ${result.stderr}`);
    assert.ok(result.stderr.trim().length > 0);
  }
});

test("env: a *_TOKEN does not reach the child; --keep-env keeps it; --explain names it, never its value", async () => {
  const env = { FOO_TOKEN: "hunter2-value", PLAIN_VAR: "plain" };
  const script = 'echo "token=[$FOO_TOKEN] plain=[$PLAIN_VAR] set=[$SET_ME]"';
  const scrubbed = await corral(["run", "--explain", "--env", "SET_ME=yes", "--", "sh", "-c", script], { env });
  assert.equal(scrubbed.code, 0);
  assert.equal(scrubbed.stdout.toString(), "token=[] plain=[plain] set=[yes]\n");
  assert.match(scrubbed.stderr, /FOO_TOKEN/);
  assert.ok(!scrubbed.stderr.includes("hunter2-value"));
  const kept = await corral(["run", "--keep-env", "FOO_TOKEN", "--", "sh", "-c", script], { env });
  assert.equal(kept.stdout.toString(), "token=[hunter2-value] plain=[plain] set=[]\n");
  const noScrub = await corral(["run", "--no-scrub", "--", "sh", "-c", script], { env });
  assert.equal(noScrub.stdout.toString(), "token=[hunter2-value] plain=[plain] set=[]\n");
  const bad = await corral(["run", "--env", "hunter2-value", "--", "true"], { env });
  assert.equal(bad.code, 2);
  assert.ok(!bad.stderr.includes("hunter2-value"));
});

test("--clear-env starts from nothing; --cwd sets the directory", async (t) => {
  const dir = tempDir(t);
  const cleared = await corral(["run", "--clear-env", "--env", "ONLY=1", "--", "env"]);
  assert.equal(cleared.code, 0, cleared.stderr);
  assert.deepEqual(cleared.stdout.toString().trim().split("\n").filter((l) => !l.startsWith("PWD=")), ["ONLY=1"]);
  const pwd = await corral(["run", "--cwd", dir, "--", "pwd"]);
  assert.equal(pwd.stdout.toString().trim(), dir);
});

test("--timeout 0 means no timeout; --grace 0 sends SIGKILL to what SIGTERM did not end at once", async (t) => {
  const dir = tempDir(t);
  const facts = path.join(dir, "facts.json");
  assert.equal((await corral(["run", "--timeout", "0", "--", "true"])).code, 0);
  const result = await corral(["run", "--timeout", "300ms", "--grace", "0", "--facts", facts, "--", "sh", "-c", "trap '' TERM; sleep 600"]);
  assert.equal(result.code, 124, result.stderr);
  const recorded = JSON.parse(readFileSync(facts, "utf8")) as { forced: boolean; signal: string };
  assert.equal(recorded.forced, true);
});
