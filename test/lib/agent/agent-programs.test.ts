// Real terminal programs driven through the CLI: vim -u NONE, less,
// python3's REPL and top. Named keys (application-cursor mode in less and
// vim), alternate screen, exit facts after quitting.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";

let agent: PrivateAgent;

before(() => {
  agent = privateAgent("agent-programs");
});

after(async () => {
  await agent.stop();
});

interface Screen {
  lines: string[];
  alternateScreen: boolean;
  alive: boolean;
  exit: { code: number | null; signal: string | null } | null;
  cursor: { row: number; col: number };
}

const screen = async (id: string) => JSON.parse(await agent.ok(["pty", "screen", id, "--json"])).screen as Screen;
const wait = (id: string, ...flags: string[]) => agent.ok(["pty", "wait", id, "--timeout", "30s", ...flags]);

test("vim -u NONE: insert, Escape, cursor keys, :wq writes the file", async () => {
  const file = path.join(agent.dir, "notes.txt");
  const id = (await agent.ok(["pty", "open", "--cwd", agent.dir, "--", "vim", "-u", "NONE", "-n", "-i", "NONE", "notes.txt"])).trim();
  await wait(id, "--regex", '"notes.txt" \\[New');
  assert.equal((await screen(id)).alternateScreen, true);
  await agent.ok(["pty", "send", id, "ifirst line", "--key", "Enter"]);
  await agent.ok(["pty", "send", id, "second line", "--key", "Escape"]);
  await agent.ok(["pty", "send", id, "--key", "Up", "--key", "Home"]);
  await agent.ok(["pty", "send", id, "x"]);
  // The whole line: "irst line" is also inside "first line", which is on the screen before the x.
  await wait(id, "--regex", "^irst line$");
  const shot = await screen(id);
  assert.equal(shot.lines[0], "irst line");
  assert.equal(shot.lines[1], "second line");
  assert.equal(shot.lines[2], "~");
  await agent.ok(["pty", "send", id, ":wq", "--key", "Enter"]);
  assert.equal((await wait(id, "--exit")).trim(), "exit");
  assert.equal((await screen(id)).exit?.code, 0);
  const { readFileSync } = await import("node:fs");
  assert.equal(readFileSync(file, "utf8"), "irst line\nsecond line\n");
});

test("less: PageDown, Down in application-cursor mode, search, q", async () => {
  const file = path.join(agent.dir, "numbers.txt");
  writeFileSync(file, Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  const id = (await agent.ok(["pty", "open", "--env", "LESS=", "--env", "LESSHISTFILE=-", "--", "less", file])).trim();
  await wait(id, "--text", "line 23");
  assert.equal((await screen(id)).lines[0], "line 1");
  await agent.ok(["pty", "send", id, "--key", "PageDown"]);
  await wait(id, "--regex", "^line 24$");
  await agent.ok(["pty", "send", id, "--key", "Down", "--key", "Down"]);
  await wait(id, "--regex", "^line 48$");
  assert.equal((await screen(id)).lines[0], "line 26", "two lines down from line 24 at the top");
  await agent.ok(["pty", "send", id, "/line 150", "--key", "Enter"]);
  await wait(id, "--regex", "^line 150$");
  assert.equal((await screen(id)).lines[0], "line 150");
  await agent.ok(["pty", "send", id, "q"]);
  await wait(id, "--exit");
  assert.equal((await screen(id)).exit?.code, 0);
});

test("python3 REPL: expressions, C-c, C-d", async () => {
  const id = (await agent.ok(["pty", "open", "--env", "PYTHONSTARTUP=", "--", "python3", "-q"])).trim();
  await wait(id, "--text", ">>> ");
  await agent.ok(["pty", "send", id, "print(6 * 7)", "--key", "Enter"]);
  await wait(id, "--regex", "^42$");
  await agent.ok(["pty", "send", id, "while True: pass", "--key", "Enter", "--key", "Enter"]);
  await agent.ok(["pty", "send", id, "--key", "C-c"]);
  await wait(id, "--text", "KeyboardInterrupt");
  await agent.ok(["pty", "send", id, "--key", "C-d"]);
  assert.equal((await wait(id, "--exit")).trim(), "exit");
  const shot = await screen(id);
  assert.equal(shot.alive, false);
  // CPython exits by re-raising SIGINT when the REPL's last exception was a
  // KeyboardInterrupt; either ending is python's own.
  assert.ok(shot.exit?.code === 0 || shot.exit?.signal === "SIGINT", JSON.stringify(shot.exit));
});

test("top: full screen, resize, q", async () => {
  const id = (await agent.ok(["pty", "open", "--cols", "100", "--rows", "30", "--", "top", "-d", "0.5"])).trim();
  await wait(id, "--regex", "PID +USER");
  await agent.ok(["pty", "resize", id, "120", "40"]);
  await wait(id, "--regex", "PID +USER");
  const shot = await screen(id);
  assert.equal(shot.lines.length, 40);
  assert.match(shot.lines.join("\n"), /^top - /m);
  await agent.ok(["pty", "send", id, "q"]);
  await wait(id, "--exit");
  assert.equal((await screen(id)).exit?.code, 0);
});
