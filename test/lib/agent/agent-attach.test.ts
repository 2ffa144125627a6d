// `corral pty attach` inside a real terminal (a node-pty PTY the test owns):
// typing reaches the session, the window size follows, C-\ detaches and
// leaves the session running, the program exiting ends the attach, and the
// terminal's modes are restored either way (stty -g before == after).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { corralCommand, repoRoot } from "../../support/corral-cli.ts";
import { waitFor } from "../../support/wait.ts";

let agent: PrivateAgent;

before(() => {
  agent = privateAgent("agent-attach");
});

after(async () => {
  await agent.stop();
});

/** Runs `corral pty attach ID` in a fresh terminal, recording stty before and after. */
async function attachInTerminal(id: string) {
  const pty = await import("@lydell/node-pty");
  const spawnPty = (pty as { spawn?: typeof pty.spawn }).spawn ?? (pty as unknown as { default: typeof pty }).default.spawn;
  const corral = corralCommand().map((part) => `'${part}'`).join(" ");
  const before = path.join(agent.dir, `stty-before-${id}`);
  const afterFile = path.join(agent.dir, `stty-after-${id}`);
  const script = `stty -g > '${before}'; ${corral} pty attach ${id}; echo "attach-status=$?"; stty -g > '${afterFile}'; echo ALL-DONE; exec cat`;
  const term = spawnPty("sh", ["-c", script], {
    cols: 90,
    rows: 25,
    cwd: repoRoot,
    env: { ...process.env, ...agent.env } as Record<string, string>,
  });
  let output = "";
  term.onData((data: string) => (output += data));
  let exited = false;
  term.onExit(() => (exited = true));
  return {
    term,
    output: () => output,
    stty: () => [readFileSync(before, "utf8"), readFileSync(afterFile, "utf8")],
    async close() {
      term.kill("SIGKILL");
      await waitFor(() => exited, { what: "the test terminal to close" });
    },
  };
}

const screen = async (id: string) => JSON.parse(await agent.ok(["pty", "screen", id, "--json"])).screen;

test("typing, window size, C-\\ detaches and the session keeps running", async () => {
  const id = (await agent.ok(["pty", "open", "--", "cat"])).trim();
  const t = await attachInTerminal(id);
  try {
    await waitFor(async () => (await screen(id)).size.cols === 90, { what: "the session to take the window size" });
    t.term.write("typed-through-attach\r");
    await agent.ok(["pty", "wait", id, "--text", "typed-through-attach", "--timeout", "20s"]);
    await waitFor(() => t.output().includes("typed-through-attach"), { what: "the echo to reach the attached terminal" });
    t.term.resize(100, 30);
    await waitFor(async () => {
      const size = (await screen(id)).size;
      return size.cols === 100 && size.rows === 30;
    }, { what: "the session to follow the resize" });
    t.term.write("\x1c");
    await waitFor(() => t.output().includes("ALL-DONE"), { what: "attach to end after C-\\" });
    assert.match(t.output(), /detached from session/);
    assert.match(t.output(), /attach-status=0/);
    const [sttyBefore, sttyAfter] = t.stty();
    assert.equal(sttyAfter, sttyBefore, "terminal modes restored");
    assert.equal((await screen(id)).alive, true, "the session keeps running");
  } finally {
    await t.close();
    await agent.ok(["pty", "close", id]);
  }
});

test("the program exiting ends the attach and restores the terminal", async () => {
  const id = (await agent.ok(["pty", "open", "--", "sh", "-c", "read line; echo got-$line; exit 3"])).trim();
  const t = await attachInTerminal(id);
  try {
    await waitFor(async () => (await screen(id)).size.cols === 90, { what: "attach to be in place" });
    t.term.write("bye\r");
    await waitFor(() => t.output().includes("ALL-DONE"), { what: "attach to end when the program exits" });
    assert.match(t.output(), /got-bye/);
    assert.match(t.output(), /exited \(exit 3\)/);
    const [sttyBefore, sttyAfter] = t.stty();
    assert.equal(sttyAfter, sttyBefore);
  } finally {
    await t.close();
  }
});
