// Recording, colours and pictures under the runtime under test (Node, Deno,
// Bun): the agent writes the .cast file, the CLI renders --ansi and --svg.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { privateAgent } from "../support/agent-harness.ts";

test("pty open --record, screen --ansi and --svg", async () => {
  const agent = privateAgent("smoke-debug");
  try {
    const cast = path.join(agent.dir, "smoke.cast");
    const id = (await agent.ok(["pty", "open", "--record", cast, "--", "sh"])).trim();
    // sh's first prompt first: a line typed before it would put the output after the prompt.
    await agent.ok(["pty", "wait", id, "--ready", "--timeout", "30s"]);
    await agent.ok(["pty", "send", id, "printf '\\033[31m%s\\033[0m\\n' smoke-red", "--key", "Enter"]);
    await agent.ok(["pty", "wait", id, "--regex", "^smoke-red$", "--timeout", "30s"]);
    // deno-lint-ignore no-control-regex -- the escapes are what is checked
    assert.match(await agent.ok(["pty", "screen", id, "--ansi"]), /^\x1b\[0;31msmoke-red\x1b\[0m$/m);
    assert.match(await agent.ok(["pty", "screen", id, "--svg", "-"]), /<text [^>]*fill="#cc0000">smoke-red<\/text>/);
    // --stop answers once the file is closed with everything in it.
    await agent.ok(["pty", "record", id, "--stop"]);
    const text = readFileSync(cast, "utf8");
    assert.equal(JSON.parse(text.split("\n")[0] as string).version, 2);
    assert.match(text, /smoke-red/);
  } finally {
    await agent.stop();
  }
});
