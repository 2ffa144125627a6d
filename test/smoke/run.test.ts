// `corral run` under the runtime under test (Node, Deno, Bun).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corral, runtime } from "../support/corral-cli.ts";
import { isAlive } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

const pidsIn = (text: string) => text.split("\n").filter((l) => /^\d+$/.test(l.trim())).map(Number);

// Each backend: the guardian when it is built (the default), and the pure
// JavaScript process-group backend ($CORRAL_GUARDIAN=never), on every runtime.
for (const [backend, env] of [
  ["default backend", {}],
  ["process-group backend", { CORRAL_GUARDIAN: "never" }],
] as const) {
  test(`run mirrors the exit status and 127 under ${runtime}, ${backend}`, async () => {
    const result = await corral(["run", "--", "sh", "-c", "echo hi; exit 3"], { env });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(result.stdout.toString(), "hi\n");
    const missing = await corral(["run", "--", "no-such-command-corral"], { env });
    assert.equal(missing.code, 127);
    assert.match(missing.stderr, /^corral: no-such-command-corral: command not found/);
  });

  test(`run --timeout kills the whole tree: 124 under ${runtime}, ${backend}`, async () => {
    const result = await corral(["run", "--timeout", "1s", "--", "sh", "-c", "sleep 600 & echo $!; sleep 600 & echo $!; wait"], { env });
    const pids = pidsIn(result.stdout.toString());
    assert.equal(result.code, 124, result.stderr);
    assert.equal(pids.length, 2);
    for (const pid of pids) assert.equal(isAlive(pid), false);
  });

  test(`SIGTERM to corral reaches the tree, corral dies of it too (as GNU timeout), tree gone, under ${runtime}, ${backend}`, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), "corral-smoke-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const pidFile = path.join(dir, "pids");
    let corralPid = 0;
    const running = corral(["run", "--", "sh", "-c", `sleep 600 & echo $! > ${pidFile}; wait`], {
      env,
      onSpawn: (pid) => (corralPid = pid),
    });
    const [sleeper] = await waitFor(() => {
      try {
        const found = pidsIn(readFileSync(pidFile, "utf8"));
        return found.length === 1 ? found : undefined;
      } catch {
        return undefined;
      }
    }, { what: "the tree to start" });
    // corral installs its handlers before starting the child, so the child's
    // pid file proves the handler is in place.
    process.kill(corralPid, "SIGTERM");
    const result = await running;
    // The child died of the forwarded SIGTERM, so corral re-raises it: a
    // shell running corral sees a signal death (128+15 in $?), not an exit.
    assert.equal(result.signal, "SIGTERM", `code ${result.code}: ${result.stderr}`);
    assert.equal(isAlive(sleeper as number), false);
  });
}
