// Under Deno, run and collect start their guardian with Deno.Command, and
// the guardian connects to a listener of ours in a private directory
// (lib/runtime/deno/guardian-spawn.ts, `--owner-connect`). The same guardian,
// driven as run and collect drive it, must behave as it does through
// node:child_process (guardian-owner-fd.test.ts): output, exit status and
// signal, input at the child's pace, the whole tree ended when the owner
// goes, kill(), one clear error for a guardian that never connected or never
// started, and no listener directory left behind in any of these cases.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";
import { buildGuardian, tempDir } from "../../support/guardian-fixture.ts";

const deno = path.join(repoRoot, "node_modules", ".bin", "deno");

test("under Deno, a guardian started through Deno.Command that connects to our private listener", { skip: !existsSync(deno) && "deno is not installed", timeout: 180_000 }, (t) => {
  const bin = buildGuardian();
  const dir = tempDir(t);
  // The listener's directories are made in $TMPDIR: a fresh one, to see that none is left.
  const tmp = path.join(dir, "tmp");
  mkdirSync(tmp);
  const ran = spawnSync(deno, ["run", "--allow-all", "--quiet", path.join(repoRoot, "test", "support", "guardian-deno-check.ts"), bin.asan, dir], {
    encoding: "utf8",
    timeout: 150_000,
    env: { ...process.env, TMPDIR: tmp, ASAN_OPTIONS: "abort_on_error=1:detect_leaks=1", UBSAN_OPTIONS: "halt_on_error=1:print_stacktrace=1" },
  });
  assert.equal(ran.status, 0, ran.stderr);
  const { checks } = JSON.parse(ran.stdout) as { checks: Record<string, true | string> };
  const failed = Object.entries(checks).filter(([, result]) => result !== true);
  assert.deepEqual(failed, [], "every check passed");
  assert.equal(Object.keys(checks).length, 9, Object.keys(checks).join("; "));
  assert.deepEqual(readdirSync(tmp), [], "nothing left in $TMPDIR");
});
