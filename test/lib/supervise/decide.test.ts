// The one decision (lib/supervise/decide.ts): who keeps a pipe tree's output
// (collect's capture, the Deno tee rule included), and that `collect
// --explain` says the reason it decided by.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { decideCapture, decidePipeCapture } from "../../../lib/supervise/decide.ts";
import { locateGuardian } from "../../../lib/supervise/guardian-setup.ts";
import { runtimeTraits } from "../../../lib/runtime/traits.ts";
import { corral, repoRoot } from "../../support/corral-cli.ts";

const own = { stdout: 1, stderr: 2 };

test("capture: the guardian keeps the output and tees --live itself; without it, or without a descriptor, JavaScript does", () => {
  assert.deepEqual(decideCapture({ guardian: true, live: false, spill: true, handed: null }), {
    tee: null, jsTee: false, externalSpill: true, nativeCapture: true, why: "the guardian keeps the output, and writes the spill file",
  });
  const live = decideCapture({ guardian: true, live: true, spill: true, handed: own });
  assert.deepEqual([live.tee, live.jsTee, live.externalSpill, live.nativeCapture], [own, false, true, true]);
  assert.match(live.why, /tees it to corral's own descriptors/);
  const noFd = decideCapture({ guardian: true, live: true, spill: true, handed: null });
  assert.deepEqual([noFd.tee, noFd.jsTee, noFd.externalSpill, noFd.nativeCapture], [null, true, false, false], "a JavaScript tee needs every byte, the spill too");
  const noGuardian = decideCapture({ guardian: false, live: false, spill: true, handed: own });
  assert.deepEqual([noGuardian.tee, noGuardian.externalSpill], [null, false]);
  assert.equal(noGuardian.why, "JavaScript keeps the output (no guardian)");
});

test("capture: descriptors other than our own 1 and 2 reach the guardian only where the runtime passes them (not Deno)", () => {
  const other = decideCapture({ guardian: true, live: true, spill: false, handed: { stdout: 7, stderr: 2 } });
  assert.equal(other.jsTee, !runtimeTraits().childDescriptorsPastStdio);
  assert.deepEqual(decideCapture({ guardian: true, live: true, spill: false, handed: { stdout: 1, stderr: null } }).tee, { stdout: 1, stderr: null });
});

test("collect's capture asks the supervisor decision: JavaScript keeps the output when the guardian is off, missing or refused", (t) => {
  const question = { live: false, spill: false, handed: null };
  assert.equal(decidePipeCapture({ guardian: "never", env: {} }, question).why, "JavaScript keeps the output (no guardian)");
  assert.equal(decidePipeCapture({ guardian: "auto", env: { CORRAL_GUARDIAN_BIN: "/nonexistent/corral-guardian" } }, question).why, "JavaScript keeps the output (no guardian)");
  assert.equal(decidePipeCapture({ guardian: "auto", env: { CORRAL_GUARDIAN: "sometimes" } }, question).why, "JavaScript keeps the output (no guardian)");
  const found = locateGuardian(process.env, { build: false });
  if (!found.built || found.path === null) return t.skip("the guardian is not built here");
  assert.equal(decidePipeCapture({ guardian: "always", env: { CORRAL_GUARDIAN_BIN: found.path } }, question).why, "the guardian keeps the output");
});

test("collect --explain says who keeps the output and under which supervisor it ran", async (t) => {
  if (!existsSync(path.join(repoRoot, "native", "build", "corral-guardian"))) return t.skip("the guardian is not built (no C compiler)");
  const ran = await corral(["collect", "--explain", "--", "sh", "-c", "echo hi"]);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stderr, /^corral: explain: output: the guardian keeps the output$/m);
  assert.match(ran.stderr, /^corral: explain: started pid \d+ under guardian /m);
  const never = await corral(["collect", "--explain", "--", "true"], { env: { CORRAL_GUARDIAN: "never" } });
  assert.match(never.stderr, /^corral: explain: output: JavaScript keeps the output \(no guardian\)$/m);
});
