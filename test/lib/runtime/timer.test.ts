// lib/runtime/timer.ts: under Deno it uses Deno's core timer (its global
// setTimeout loads node:timers on first touch), elsewhere setTimeout; on
// every runtime the timers must behave as setTimeout's do for the
// supervision path: once, after their delay, never when stopped, keeping
// the process alive while pending.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";
import { programUnderEachRuntime } from "../../support/runtime-program.ts";
import { scratchDir } from "../../support/scratch-dir.ts";

const program = path.join(repoRoot, "test", "support", "timer-check.ts");

for (const [runtime, argv] of Object.entries(programUnderEachRuntime(program))) {
  const missing = runtime !== "node" && !existsSync(argv[0]!);
  test(`under ${runtime}, timers fire once in order of their delays, never when stopped, and keep the process alive; a background ticker repeats until stopped and keeps nothing alive`, { skip: missing && `${runtime} is not installed`, timeout: 120_000 }, () => {
    const ran = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8", timeout: 100_000 });
    assert.equal(ran.status, 0, ran.stderr);
    assert.deepEqual(JSON.parse(ran.stdout), { fired: ["out of range", "30", "60", "120"], ticks: 3, failures: [] });
  });
}

test("under Deno, the timers are Deno's core timer: the global setTimeout (node:timers) is never touched", { skip: !existsSync(path.join(repoRoot, "node_modules", ".bin", "deno")) && "deno is not installed", timeout: 120_000 }, (t) => {
  const loads = path.join(scratchDir(t, "corral-timer-"), "loads");
  const deno = path.join(repoRoot, "node_modules", ".bin", "deno");
  const ran = spawnSync(deno, ["run", "--allow-all", "--quiet", "--preload", path.join(repoRoot, "test", "support", "deno-builtin-loads.ts"), program], { encoding: "utf8", timeout: 100_000, env: { ...process.env, CORRAL_TEST_BUILTIN_LOADS: loads } });
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(existsSync(loads), false, "a Node module or a loading global was touched");
});
