// The environment the far side of a --host/--via call builds for a job or a
// session (lib/agent/client/remote/far-environment.ts): its own variables,
// by the rules of a local run, under the caller's flags; the names it
// withholds and the count --clear-env leaves out, for the caller's line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { farEnvironment, shapesEnvironment } from "../../../lib/agent/client/remote/far-environment.ts";
import { DEFAULT_CONFIG } from "../../../lib/config/schema.ts";

const here = { PATH: "/usr/bin", HOME: "/home/ci", DEPLOY_TOKEN: "t0k3n", CORRAL_STATE_DIR: "/run/corral" };
const job = (extra: Record<string, unknown> = {}) => ({ op: "job-start", argv: ["env"], env: { MODE: "ci" }, ...extra });

test("a job: this side's variables, credentials withheld and named, what the caller set on top", () => {
  const far = farEnvironment(job(), here, DEFAULT_CONFIG);
  assert.deepEqual(far?.env, { PATH: "/usr/bin", HOME: "/home/ci", MODE: "ci" });
  assert.deepEqual(far?.withheld, ["CORRAL_STATE_DIR", "DEPLOY_TOKEN"]);
});

test("a job's --keep-env, --no-scrub and --clear-env apply here as locally; malformed flags count as none", () => {
  assert.equal(farEnvironment(job({ envFlags: { keep: ["DEPLOY_*"] } }), here, DEFAULT_CONFIG)?.env.DEPLOY_TOKEN, "t0k3n");
  assert.equal(farEnvironment(job({ envFlags: { scrub: false } }), here, DEFAULT_CONFIG)?.env.DEPLOY_TOKEN, "t0k3n");
  const cleared = farEnvironment(job({ envFlags: { clear: true, keep: ["PATH"] } }), here, DEFAULT_CONFIG);
  assert.deepEqual(cleared?.env, { PATH: "/usr/bin", MODE: "ci" });
  assert.equal(cleared?.cleared, 3);
  assert.deepEqual(cleared?.withheld, []);
  const odd = farEnvironment(job({ envFlags: { clear: "yes", keep: "PATH", scrub: 0 } }), here, DEFAULT_CONFIG);
  assert.deepEqual(odd?.withheld, ["CORRAL_STATE_DIR", "DEPLOY_TOKEN"]);
  assert.equal(odd?.cleared, 0);
});

test("this side's config key scrub: false passes its variables; a session gets its TERM and withholds as open does", () => {
  assert.equal(farEnvironment(job(), here, { ...DEFAULT_CONFIG, scrub: false })?.env.DEPLOY_TOKEN, "t0k3n");
  const session = farEnvironment({ op: "open", argv: ["sh"], env: {}, term: "screen" }, here, DEFAULT_CONFIG);
  assert.equal(session?.env.TERM, "screen");
  assert.equal(session?.env.DEPLOY_TOKEN, undefined);
  assert.deepEqual(session?.withheld, ["CORRAL_STATE_DIR", "DEPLOY_TOKEN"]);
  assert.equal(farEnvironment({ op: "screen", session: "1" }, here, DEFAULT_CONFIG), null);
});

test("only flags an earlier far side would not honour count (it always scrubbed: --scrub it did)", () => {
  assert.equal(shapesEnvironment(undefined), false);
  assert.equal(shapesEnvironment({ clear: false, keep: [] }), false);
  assert.equal(shapesEnvironment({ clear: true }), true);
  assert.equal(shapesEnvironment({ keep: ["PATH"] }), true);
  assert.equal(shapesEnvironment({ scrub: false }), true);
  assert.equal(shapesEnvironment({ scrub: true }), false);
});
