// What an install links as `corral` (cli/native-client-install.ts): the
// native client when it builds here, and when it cannot (no C compiler, a
// broken source), a link to the JavaScript CLI that runs every command with
// the same argv.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { placeLauncher } from "../../../cli/native-client-install.ts";
import { scratchDir } from "../../support/scratch-dir.ts";

/** A package root whose native client cannot compile, with a stand-in JavaScript CLI that prints its argv. */
function brokenCopy(root: string): void {
  mkdirSync(path.join(root, "native", "client"), { recursive: true });
  writeFileSync(path.join(root, "native", "client", "corral-client.c"), "this is not C\n");
  mkdirSync(path.join(root, "dist"));
  writeFileSync(path.join(root, "dist", "corral.cjs"), "#!/usr/bin/env node\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)));\n", { mode: 0o755 });
}

test("without a native client the bin is a link to the JavaScript CLI, with the same argv", (t) => {
  const root = scratchDir(t, "corral-launcher-");
  brokenCopy(root);
  const placed = placeLauncher(root);
  assert.equal(placed.kind, "javascript");
  assert.match(placed.why ?? "", /failed|no C compiler/);
  const bin = path.join(root, "dist", "corral");
  assert.ok(lstatSync(bin).isSymbolicLink());
  assert.equal(readlinkSync(bin), "corral.cjs");
  // Linked again from elsewhere, as npm links a bin into a prefix's bin/.
  const linked = path.join(root, "corral-on-path");
  spawnSync("ln", ["-s", bin, linked]);
  const r = spawnSync(linked, ["pty", "send", "a b", "--key", "Enter"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), ["pty", "send", "a b", "--key", "Enter"]);
});

test("a built native client is what the bin runs", (t) => {
  const root = scratchDir(t, "corral-launcher-built-");
  brokenCopy(root);
  mkdirSync(path.join(root, "native", "build"));
  // Any executable stands in for the built client here: placing copies it whole.
  writeFileSync(path.join(root, "native", "build", "corral-client"), "#!/bin/sh\necho native \"$@\"\n", { mode: 0o755 });
  assert.equal(placeLauncher(root).kind, "native");
  const r = spawnSync(path.join(root, "dist", "corral"), ["jobs"], { encoding: "utf8" });
  assert.equal(r.stdout, "native jobs\n");
});
