// Jobs under each runtime (the CLI and so its agent run under Node, Deno or
// Bun): a background job, its output followed to its status, the table, reap.
import { test } from "node:test";
import assert from "node:assert/strict";
import { privateAgent } from "../support/agent-harness.ts";

test("run --bg, collect --job --follow, jobs --json, reap", async (t) => {
  const agent = privateAgent("smoke-jobs");
  t.after(() => agent.stop());
  assert.equal((await agent.ok(["run", "--bg", "--name", "smoke", "--", "sh", "-c", "echo one; echo two >&2; exit 6"])).trim(), "%1");
  const follow = await agent.run(["collect", "--job", "smoke", "--follow"]);
  assert.equal(follow.code, 6, follow.stderr);
  assert.equal(follow.stdout.toString(), "one\ntwo\n");
  const { jobs } = JSON.parse(await agent.ok(["jobs", "--json"])) as { jobs: { id: number; state: string; status: number }[] };
  assert.deepEqual(jobs.map((j) => [j.id, j.state, j.status]), [[1, "done", 6]]);
  assert.match(await agent.ok(["reap"]), /^%1 {2}exit 6 .*receipt confirmed/);
  assert.equal((await agent.ok(["reap"])).trim(), "nothing to reap");
});
