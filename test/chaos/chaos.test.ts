// The 60-second chaos run, part of `npm test`: a random seed each time
// (printed, with the command that replays it), zero violations expected.
// A fault or workload this machine cannot give (no tmpfs mount, no vim) is
// reported as a skipped subtest with its reason, not folded into the pass.
// `npm run chaos -- --minutes 30` is the long run (docs/chaos.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { runChaos } from "./run-chaos.ts";

test("chaos: 60 s of faults, every invariant kept", { timeout: 300_000 }, async (t) => {
  const seed = process.env.CORRAL_CHAOS_SEED !== undefined ? Number(process.env.CORRAL_CHAOS_SEED) : Date.now() % 2 ** 32;
  const lines: string[] = [];
  const report = await runChaos({ seconds: 60, seed, log: (line) => lines.push(line) });
  for (const line of lines) t.diagnostic(line);
  const skipOf = (what: string) => report.skipped.find((s) => s.startsWith(what));
  await t.test("full-disk fault (a small tmpfs filled under a job's spill)", { skip: skipOf("full-disk") ?? false }, () => {});
  await t.test("vim sessions", { skip: skipOf("vim") ?? false }, () => {});
  assert.ok(report.rounds >= 1 && report.checked > 0, "the run checked something");
  assert.deepEqual(report.violations, [], `seed ${report.seed}: replay with npm run chaos -- --seconds 60 --seed ${report.seed}\n${lines.join("\n")}`);
});
