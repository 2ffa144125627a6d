// `corral mcp` under each runtime (the server runs under Node, Deno or Bun;
// the SDK's client drives it over stdio): the tools are listed, run answers
// with its exit facts and output, a session opens, is read, runs a command
// line with terminal_exec and closes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { privateAgent } from "../support/agent-harness.ts";
import { mcpSession } from "../support/mcp-client.ts";

test("tools/list, run, terminal_open + terminal_screen + terminal_close", async (t) => {
  const agent = privateAgent("smoke-mcp");
  t.after(() => agent.stop());
  const mcp = await mcpSession(agent);
  t.after(() => mcp.close());
  assert.equal((await mcp.client.listTools()).tools.length, 12);
  const run = await mcp.ok<{ status: number; output: string }>("run", { command: "echo one; exit 4" });
  assert.deepEqual([run.status, run.output], [4, "one\n"]);
  await mcp.ok("terminal_open", { argv: ["sh"], name: "s", env: { PS1: "$ " } });
  // sh's first prompt first: a line typed before it would put the output after the prompt ("$ 5").
  await mcp.ok("terminal_wait", { session: "s", ready: true, timeoutMs: 30_000 });
  const waited = await mcp.ok<{ waited: { fired: string } }>("terminal_send", { session: "s", text: "echo $((2+3))", keys: ["Enter"], wait: { regex: "^5$" } });
  assert.equal(waited.waited.fired, "regex");
  const screen = await mcp.ok<{ lines: string[] }>("terminal_screen", { session: "s" });
  assert.ok(screen.lines.includes("5"));
  const ran = await mcp.ok<{ status: number; output: string; cwd: string | null }>("terminal_exec", { session: "s", command: "cd / && echo exec-$((1+1)); false" });
  assert.deepEqual([ran.status, ran.output, ran.cwd], [1, "exec-2\n", "/"]);
  await mcp.ok("terminal_close", { session: "s", force: true });
});
