// pty exec under the runtime under test (Node, Deno, Bun): the agent hooks
// bash, runs a command and gives its output and status; a second one sees
// the first one's cd.
import { test } from "node:test";
import assert from "node:assert/strict";
import { privateAgent } from "../support/agent-harness.ts";

test("pty exec: output, status, state carried to the next command", async () => {
  const agent = privateAgent("smoke-exec");
  try {
    await agent.ok(["pty", "open", "--name", "b", "--", "bash"]);
    const first = await agent.run(["pty", "exec", "b", "--timeout", "60s", "--", "cd /tmp && echo in-$PWD; (exit 7)"]);
    assert.deepEqual([first.code, first.stdout.toString()], [7, "in-/tmp\n"], first.stderr.toString());
    const second = JSON.parse(await agent.ok(["pty", "exec", "b", "--json", "--", "pwd"]));
    assert.deepEqual([second.output, second.status, second.cwd], ["/tmp\n", 0, "/tmp"]);
  } finally {
    await agent.stop();
  }
});
