// The 60-second chaos run, part of `npm test`: a random seed each time
// (printed, with the command that replays it), zero violations expected.
// `npm run chaos -- --minutes 30` is the long run (docs/chaos.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { runChaos } from "./run-chaos.ts";

test("chaos: 60 s of faults, every invariant kept", { timeout: 300_000 }, async (t) => {
  const seed = process.env.CORRAL_CHAOS_SEED !== undefined ? Number(process.env.CORRAL_CHAOS_SEED) : Date.now() % 2 ** 32;
  const lines: string[] = [];
  const report = await runChaos({ seconds: 60, seed, log: (line) => lines.push(line) });
  for (const line of lines) t.diagnostic(line);
  for (const skip of report.skipped) t.diagnostic(`SKIP ${skip}`);
  assert.ok(report.rounds >= 1 && report.checked > 0, "the run checked something");
  assert.deepEqual(report.violations, [], `seed ${report.seed}: replay with npm run chaos -- --seconds 60 --seed ${report.seed}\n${lines.join("\n")}`);
});
