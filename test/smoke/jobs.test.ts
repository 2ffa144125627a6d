// Jobs under each runtime (the CLI and so its agent run under Node, Deno or
// Bun): a background job, its output followed to its status, the table, reap;
// and in a real terminal (tmux), run --tty, Ctrl-Z, fg, with stty -a unchanged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { privateAgent } from "../support/agent-harness.ts";
import { terminalWithAgent } from "../support/jobs-fixture.ts";

test("run --bg, collect --job --follow, jobs --json, reap", async (t) => {
  const agent = privateAgent("smoke-jobs");
  t.after(() => agent.stop());
  assert.equal((await agent.ok(["run", "--bg", "--name", "smoke", "--", "sh", "-c", "echo one; echo two >&2; exit 6"])).trim(), "%1");
  const follow = await agent.run(["collect", "--job", "smoke", "--follow"]);
  assert.equal(follow.code, 6, follow.stderr);
  assert.equal(follow.stdout.toString(), "one\ntwo\n");
  const { jobs } = JSON.parse(await agent.ok(["jobs", "--json"])) as { jobs: { id: string; number: number; state: string; status: number }[] };
  assert.deepEqual(jobs.map((j) => [j.id, j.number, j.state, j.status]), [["%1", 1, "done", 6]]);
  assert.match(await agent.ok(["reap"]), /^%1 {2}exit 6 .*receipt confirmed/);
  assert.equal((await agent.ok(["reap"])).trim(), "nothing to reap");
});

test("run --tty in a real terminal: Ctrl-Z parks it (148), fg resumes it, the terminal is as it was", async (t) => {
  const term = terminalWithAgent(t, "smoke-tty");
  const before = await term.sttyState("stty-before");
  const run = term.corral("run --tty -- cat");
  term.type("first line");
  await term.waitScreen(/^first line\s*\n^first line\s*$/m, "cat's echo of the first line");
  term.keys("C-z");
  assert.equal(await term.status(run), 148);
  assert.equal(await term.sttyState("stty-parked"), before);
  const fg = term.corral("fg");
  await term.waitTerminalRaw("fg to hold the terminal");
  term.type("second line");
  await term.waitScreen(/^second line\s*\n^second line\s*$/m, "cat's echo after fg");
  term.keys("C-d");
  assert.equal(await term.status(fg), 0);
  assert.equal(await term.sttyState("stty-after"), before);
});
