// `pty screen --ansi` against tmux's `capture-pane -e -p`: the same program
// at the same size in a corral session and in a tmux pane gives the same
// characters with the same colours and attributes, once both spellings of
// the escapes are read back into cells (test/support/sgr-cells.ts).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import path from "node:path";
import { privateAgent } from "../../support/agent-harness.ts";
import { sgrCells } from "../../support/sgr-cells.ts";
import { waitFor } from "../../support/wait.ts";

const agent = privateAgent("ansi");
const tmuxSocket = `corraltest-ansi-${process.pid}`;
after(async () => {
  spawnSync("tmux", ["-L", tmuxSocket, "kill-server"]);
  await agent.stop();
});
const haveTmux = spawnSync("tmux", ["-V"]).status === 0;
const COLS = 80;
const ROWS = 24;

// The same environment on both sides, whatever the caller's.
const ENV = ["env", "-i", `PATH=${process.env.PATH}`, "TERM=xterm-256color", "LANG=C.UTF-8", "HOME=/nonexistent-corral-home"];

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", tmuxSocket, "-f", "/dev/null", ...args], { encoding: "utf8" });
}

/** Starts the program in a tmux window and a corral session; returns both names. */
async function startBoth(name: string, argv: string[], cwd: string): Promise<string> {
  const command = [...ENV, ...argv];
  if (spawnSync("tmux", ["-L", tmuxSocket, "has-session"]).status !== 0) {
    tmux("set", "-g", "status", "off", ";", "set", "-g", "default-terminal", "xterm-256color", ";", "new-session", "-d", "-s", "keep", "-x", String(COLS), "-y", String(ROWS), "--", "sleep", "600");
  }
  tmux("new-window", "-d", "-t", "keep", "-n", name, "-c", cwd, "--", ...command);
  // New windows take the session's size: the program starts at 80x24 on both sides, never resized.
  return (await agent.ok(["pty", "open", "--name", name, "--cols", String(COLS), "--rows", String(ROWS), "--cwd", cwd, "--", ...command])).trim();
}

/** Waits until corral's --ansi and tmux's capture-pane -e agree cell for cell; fails showing both. */
async function assertSameCells(name: string, expect: RegExp): Promise<void> {
  let ours: string[][] = [];
  let theirs: string[][] = [];
  try {
    await waitFor(async () => {
      const text = await agent.ok(["pty", "screen", name, "--ansi"]);
      ours = sgrCells(text);
      theirs = sgrCells(tmux("capture-pane", "-e", "-p", "-t", `keep:${name}`));
      while (ours.length > 0 && ours[ours.length - 1]?.length === 0) ours.pop();
      while (theirs.length > 0 && theirs[theirs.length - 1]?.length === 0) theirs.pop();
      // deno-lint-ignore no-control-regex -- escapes are what is removed
      return expect.test(text.replace(/\x1b\[[0-9;:]*m/g, "")) && JSON.stringify(ours) === JSON.stringify(theirs);
    }, { timeoutMs: 20_000, intervalMs: 200, what: `${name}: --ansi to equal capture-pane -e` });
  } catch (error) {
    assert.deepEqual(ours, theirs, `${name}: cells differ`);
    throw error;
  }
  assert.ok(ours.flat().some((cell) => !cell.endsWith("|||")), `${name}: something on the screen is coloured`);
}

test("ls --color=always in a directory of every kind of file", { skip: !haveTmux && "tmux not installed" }, async () => {
  const dir = path.join(agent.dir, "lsdir");
  mkdirSync(path.join(dir, "subdir"), { recursive: true });
  writeFileSync(path.join(dir, "plain.txt"), "x");
  writeFileSync(path.join(dir, "archive.tar"), "x");
  writeFileSync(path.join(dir, "run.sh"), "#!/bin/sh\n");
  chmodSync(path.join(dir, "run.sh"), 0o755);
  symlinkSync("plain.txt", path.join(dir, "link"));
  symlinkSync("missing", path.join(dir, "broken"));
  await startBoth("ls", ["sh", "-c", "ls --color=always -1 -F; exec sleep 600"], dir);
  await assertSameCells("ls", /subdir/);
});

test("vim with syntax on", { skip: !haveTmux && "tmux not installed" }, async () => {
  const dir = path.join(agent.dir, "vimdir");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "demo.sh"), [
    "#!/bin/sh",
    "# a comment",
    'name="world"',
    "for i in 1 2 3; do",
    '  echo "hello $name $i" | tr a-z A-Z',
    "done",
    "exit 0",
    "",
  ].join("\n"));
  // No terminal queries: tmux and xterm answer them differently, and vim would pick other colours.
  await startBoth("vim", ["vim", "-u", "NONE", "-N", "-i", "NONE", "-n", "--cmd", "set t_RV= t_u7= t_RB= t_RF= background=dark", "-c", "syntax on", "demo.sh"], dir);
  await assertSameCells("vim", /hello \$name/);
});

test("256-colour and truecolour patterns, and every attribute", { skip: !haveTmux && "tmux not installed" }, async () => {
  const dir = path.join(agent.dir, "patterns");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "patterns.sh"), String.raw`
for i in $(seq 0 255); do printf '\033[38;5;%dm#\033[48;5;%dm \033[0m' "$i" "$((255 - i))"; [ $((i % 32)) = 31 ] && printf '\n'; done
for r in 0 64 128 192 255; do for g in 0 85 170 255; do for b in 0 127 255; do printf '\033[38;2;%d;%d;%dm@\033[48;2;%d;%d;%dm.' $r $g $b $b $r $g; done; done; printf '\033[0m\n'; done
printf '\033[1mbold\033[0m \033[2mdim\033[0m \033[3mitalic\033[0m \033[4munderline\033[0m \033[7minverse\033[0m \033[9mstrike\033[0m \033[1;3;4;31;42mall\033[0m end\n'
`);
  await startBoth("patterns", ["sh", "-c", "bash patterns.sh; exec sleep 600"], dir);
  await assertSameCells("patterns", /all end/);
});
