import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkWorkingDirectory, resolveExecutable } from "../../../lib/supervise/lookup.ts";
import { SpawnError } from "../../../lib/supervise/spawn-error.ts";

function failure(fn: () => unknown): SpawnError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SpawnError) return error;
    throw error;
  }
  assert.fail("expected a SpawnError");
}

test("lookup: PATH order, slash names relative to cwd, 127 vs 126", (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-lookup-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const a = path.join(dir, "a");
  const b = path.join(dir, "b");
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(path.join(a, "tool"), "#!/bin/sh\n", { mode: 0o644 });
  writeFileSync(path.join(b, "tool"), "#!/bin/sh\n", { mode: 0o755 });
  writeFileSync(path.join(a, "plain"), "data", { mode: 0o644 });
  mkdirSync(path.join(a, "adir"));

  // A non-executable match earlier on PATH is skipped, as execvp does.
  assert.equal(resolveExecutable("tool", `${a}:${b}`, "/"), path.join(b, "tool"));
  assert.equal(resolveExecutable("./b/tool", undefined, dir), path.join(b, "tool"));

  const missing = failure(() => resolveExecutable("no-such-corral-tool", `${a}:${b}`, "/"));
  assert.equal(missing.failure, "not-found");
  assert.equal(missing.exitStatus, 127);
  assert.match(missing.message, /no-such-corral-tool/);

  const plain = failure(() => resolveExecutable("plain", a, "/"));
  assert.equal(plain.exitStatus, 126);
  const byPath = failure(() => resolveExecutable(path.join(a, "plain"), undefined, "/"));
  assert.equal(byPath.exitStatus, 126);
  const directory = failure(() => resolveExecutable(path.join(a, "adir"), undefined, "/"));
  assert.equal(directory.exitStatus, 126);
  assert.equal(failure(() => resolveExecutable("./nope", undefined, dir)).exitStatus, 127);
  chmodSync(path.join(a, "plain"), 0o755);
  assert.equal(resolveExecutable("plain", a, "/"), path.join(a, "plain"));
});

test("working directory: missing and not-a-directory are clear errors", (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-cwd-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "file"), "");
  checkWorkingDirectory(dir);
  const missing = failure(() => checkWorkingDirectory(path.join(dir, "gone")));
  assert.equal(missing.failure, "bad-cwd");
  assert.match(missing.message, /no such directory/);
  assert.match(failure(() => checkWorkingDirectory(path.join(dir, "file"))).message, /not a directory/);
});
