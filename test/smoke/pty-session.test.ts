// The agent and a terminal session under the runtime under test (Node, Deno,
// Bun): auto-start, open, send, wait, screen, connect, close, agent stop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { privateAgent } from "../support/agent-harness.ts";
import { isAlive } from "../support/processes.ts";

test("pty round trip and agent lifecycle", async () => {
  const agent = privateAgent("smoke-pty");
  try {
    const { session: opened } = JSON.parse(await agent.ok(["pty", "open", "--name", "smoke", "--json", "--", "sh"])) as { session: { id: string; pid: number } };
    // Typed before sh prints its first prompt, the line's output would follow that prompt on its
    // row ("# smoke-23"): wait for sh to read its terminal first, as docs/scripting.md does.
    await agent.ok(["pty", "wait", "smoke", "--ready", "--timeout", "30s"]);
    await agent.ok(["pty", "send", "smoke", "echo smoke-$((20+3))", "--key", "Enter"]);
    assert.equal((await agent.ok(["pty", "wait", "smoke", "--regex", "^smoke-23$", "--timeout", "30s"])).trim(), "regex");
    assert.match(await agent.ok(["pty", "screen", opened.id]), /^smoke-23$/m);
    const reply = await agent.ok(["connect"], { input: '{"op":"list","ref":"r"}\n' });
    assert.equal(JSON.parse(reply).sessions[0].name, "smoke");
    const status = JSON.parse(await agent.ok(["agent", "status", "--json"]));
    assert.equal(status.sessions, 1);
    await agent.ok(["agent", "stop", "--force"]);
    assert.equal(isAlive(opened.pid), false);
    assert.equal(isAlive(status.pid), false);
  } finally {
    await agent.stop();
  }
});
