// Where the agent's files go and which directories are accepted
// (DESIGN.md 4.6), checked without starting anything.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkStateDir, ensureStateDir, socketPath, stateDirPath, StateDirError } from "../../../lib/agent/client/state-dir.ts";
import { agentPaths } from "../../../lib/agent/client/agent-paths.ts";

test("state dir lookup order: CORRAL_STATE_DIR, XDG_RUNTIME_DIR/corral, /tmp/corral-UID", () => {
  assert.equal(stateDirPath({ CORRAL_STATE_DIR: "/x/state", XDG_RUNTIME_DIR: "/run/user/7" }), "/x/state");
  assert.equal(stateDirPath({ XDG_RUNTIME_DIR: "/run/user/7" }), "/run/user/7/corral");
  assert.equal(stateDirPath({}), `/tmp/corral-${process.getuid?.() ?? 0}`);
  assert.equal(stateDirPath({ CORRAL_STATE_DIR: "", XDG_RUNTIME_DIR: "" }), `/tmp/corral-${process.getuid?.() ?? 0}`);
});

test("socket: --socket, else CORRAL_SOCKET, else agent.sock in the state dir; siblings beside it", () => {
  const env = { CORRAL_STATE_DIR: "/s", CORRAL_SOCKET: "/other/a.sock" };
  assert.equal(socketPath(env, "/flag/b.sock"), "/flag/b.sock");
  assert.equal(socketPath(env), "/other/a.sock");
  assert.equal(socketPath({ CORRAL_STATE_DIR: "/s" }), "/s/agent.sock");
  assert.deepEqual(agentPaths("/s/agent.sock"), {
    socket: "/s/agent.sock", lock: "/s/agent.lock", starting: "/s/agent.starting", pid: "/s/agent.pid", log: "/s/agent.log", dir: "/s",
  });
  assert.equal(agentPaths("/t/raw").lock, "/t/raw.lock");
});

test("a missing dir is created 0700; an open, foreign or non-directory one is refused", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "corral-statedir-"));
  try {
    const fresh = path.join(root, "a", "b");
    ensureStateDir(fresh);
    assert.equal(statSync(fresh).mode & 0o777, 0o700);
    ensureStateDir(fresh);
    for (const mode of [0o750, 0o705, 0o701, 0o777]) {
      chmodSync(fresh, mode);
      assert.throws(() => checkStateDir(fresh), (e: Error) =>
        e instanceof StateDirError && e.message.includes(mode.toString(8)) && e.message.includes("chmod 700"));
    }
    chmodSync(fresh, 0o700);
    const file = path.join(root, "file");
    writeFileSync(file, "");
    assert.throws(() => ensureStateDir(file), StateDirError);
    if (process.getuid?.() === 0) {
      const foreign = path.join(root, "foreign");
      mkdirSync(foreign, { mode: 0o700 });
      chownSync(foreign, 65534, 65534);
      assert.throws(() => ensureStateDir(foreign), /owned by uid 65534/);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
