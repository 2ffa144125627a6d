// Under Bun, run and collect start their guardian with Bun.spawn and speak
// to it over Bun's own socket (lib/runtime/bun/guardian-spawn.ts). The same
// guardian, driven as run and collect drive it, must behave as it does
// through node:child_process (guardian-owner-fd.test.ts): output and exit
// status, input at the child's pace, the tree ended when the owner goes,
// kill(), and a guardian that never got to its welcome explained.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";
import { buildGuardian, tempDir } from "../../support/guardian-fixture.ts";

const bun = path.join(repoRoot, "node_modules", ".bin", "bun");

test("under Bun, a guardian over its inherited connection through Bun.spawn and Bun.connect", { skip: !existsSync(bun) && "bun is not installed", timeout: 180_000 }, (t) => {
  const bin = buildGuardian();
  const ran = spawnSync(bun, [path.join(repoRoot, "test", "support", "guardian-bun-check.ts"), bin.asan, tempDir(t)], {
    encoding: "utf8",
    timeout: 150_000,
    env: { ...process.env, ASAN_OPTIONS: "abort_on_error=1:detect_leaks=1", UBSAN_OPTIONS: "halt_on_error=1:print_stacktrace=1" },
  });
  assert.equal(ran.status, 0, ran.stderr);
  const { checks } = JSON.parse(ran.stdout) as { checks: Record<string, true | string> };
  const failed = Object.entries(checks).filter(([, result]) => result !== true);
  assert.deepEqual(failed, [], "every check passed");
  assert.equal(Object.keys(checks).length, 8, Object.keys(checks).join("; "));
});
