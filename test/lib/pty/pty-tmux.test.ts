// tmux is the reference terminal: the same program, size and keys must give
// the same screen, row for row, in a corral session and in a tmux pane
// (`capture-pane -p`). Normalization: trailing spaces and trailing empty rows
// only, which capture-pane drops itself.
import { test } from "node:test";
import { scratchDir } from "../../support/scratch-dir.ts";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { PtySession } from "../../../lib/pty/session.ts";
import { waitFor } from "../../support/wait.ts";
import { backends, openSession } from "../../support/pty-fixture.ts";

const COLS = 80;
const ROWS = 24;

/** A tmux server on a private socket, one session `t`, status line off. */
class TmuxReference {
  readonly socket = `corraltest-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }

  start(argv: readonly string[], cwd: string): void {
    this.tmux(
      "set", "-g", "status", "off", ";",
      "set", "-g", "default-terminal", "xterm-256color", ";",
      "new-session", "-d", "-s", "t", "-x", String(COLS), "-y", String(ROWS), "-c", cwd, "--", ...argv,
    );
  }

  keys(...names: string[]): void {
    this.tmux("send-keys", "-t", "t", ...names);
  }

  text(literal: string): void {
    this.tmux("send-keys", "-t", "t", "-l", "--", literal);
  }

  capture(): string[] {
    return this.tmux("capture-pane", "-p", "-t", "t").split("\n");
  }

  cursor(): { row: number; col: number } {
    const [col, row] = this.tmux("display", "-p", "-t", "t", "#{cursor_x},#{cursor_y}").trim().split(",").map(Number);
    return { row: row ?? -1, col: col ?? -1 };
  }

  kill(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // already gone
    }
  }
}

function normalize(rows: readonly string[]): string[] {
  const out = rows.map((row) => row.replace(/ +$/, ""));
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

/** Waits until both screens (and cursors) agree; on the deadline, fails showing the difference. */
async function assertSameScreen(session: PtySession, tmux: TmuxReference, step: string): Promise<void> {
  let ours: string[] = [];
  let theirs: string[] = [];
  let cursors = "";
  try {
    await waitFor(async () => {
      const snap = await session.screen({ peek: true });
      ours = normalize(snap.lines);
      theirs = normalize(tmux.capture());
      const c = tmux.cursor();
      cursors = `ours ${snap.cursor.row},${snap.cursor.col} tmux ${c.row},${c.col}`;
      return JSON.stringify(ours) === JSON.stringify(theirs) && snap.cursor.row === c.row && snap.cursor.col === c.col;
    }, { timeoutMs: 15_000, intervalMs: 50, what: `the screens to agree after ${step}` });
  } catch {
    assert.deepEqual(ours, theirs, `screen after ${step}`);
    assert.fail(`cursor after ${step}: ${cursors}`);
  }
}

function sampleFile(): { dir: string; file: string } {
  const dir = scratchDir(undefined, "corral-pty-tmux-");
  const lines: string[] = [];
  for (let i = 1; i <= 60; i++) lines.push(`line ${i}: the quick brown fox jumps over the lazy dog`);
  lines[4] = "a long line that wraps: " + "0123456789".repeat(12);
  lines[6] = "tabs\tand\ttabs; accents héllo wörld; wide 漢字 characters";
  writeFileSync(path.join(dir, "sample.txt"), lines.join("\n") + "\n");
  return { dir, file: "sample.txt" };
}

interface Step {
  readonly keys?: string[];
  readonly text?: string;
  /** What our screen must show once the step is drawn (so "equal" is never "both not drawn yet"). */
  readonly expect: RegExp;
}

/** Sends the same keys to both terminals, then waits for our screen to show the step and settle. */
async function both(session: PtySession, tmux: TmuxReference, step: Step): Promise<void> {
  const before = (await session.screen({ peek: true })).hash;
  if (step.text !== undefined) {
    session.write(step.text);
    tmux.text(step.text);
  }
  if (step.keys !== undefined) {
    await session.sendKeys(step.keys);
    tmux.keys(...step.keys);
  }
  await waitFor(async () => {
    const snap = await session.screen({ peek: true });
    return snap.hash !== before && step.expect.test(snap.lines.join("\n"));
  }, { timeoutMs: 15_000, what: `the screen to show ${step.expect}` });
  await session.wait({ stableMs: 300, timeoutMs: 15_000 });
}

const ENV = { LESS: "", LESSHISTFILE: "-", LESSOPEN: "", LESSCLOSE: "" };

for (const backend of backends) {
  test(`[${backend}] vim -u NONE: same screen as tmux after the same keys`, async (t) => {
    const { dir, file } = sampleFile();
    const argv = ["env", "LESS=", "vim", "-u", "NONE", "-i", "NONE", "-n", file];
    const tmux = new TmuxReference();
    t.after(() => tmux.kill());
    tmux.start(argv, dir);
    const s = await openSession(t, backend, { argv, cwd: dir, cols: COLS, rows: ROWS, env: ENV });
    await s.wait({ regex: "^line 1: the quick[\\s\\S]*sample.txt", timeoutMs: 15_000 });
    await s.wait({ stableMs: 300, timeoutMs: 15_000 });
    await assertSameScreen(s, tmux, "start");
    const steps: Step[] = [
      { keys: ["j", "j", "j", "j", "j", "j", "d", "d"], expect: /^line 6:[^\n]*\nline 8:/m },
      { text: "/fox", keys: ["Enter"], expect: /\/fox/ },
      { keys: ["Down", "Down", "Right", "Right", "x"], expect: /quick brown (fx|fo|ox) /m },
      { text: ":set number", keys: ["Enter"], expect: /^ +1 line 1:/m },
      { keys: ["G", "o"], expect: /^ +60 *$/m },
      { text: "an added line", keys: ["Escape"], expect: /^ +60 an added line$/m },
      { keys: ["C-b"], expect: /^ +1?\d line/m },
      { keys: ["PageUp", "Up", "Up", "End"], expect: /^ +1 line 1:/m },
      { text: ":5", keys: ["Enter"], expect: /^:5$/m },
    ];
    for (const [i, step] of steps.entries()) {
      await both(s, tmux, step);
      await assertSameScreen(s, tmux, `step ${i + 1} ${JSON.stringify(step)}`);
    }
    const snap = await s.screen();
    assert.equal(snap.alternateScreen, true, "vim draws on the alternate screen");
  });

  test(`[${backend}] less: same screen as tmux after the same keys`, async (t) => {
    const { dir, file } = sampleFile();
    const argv = ["env", "LESS=", "LESSHISTFILE=-", "less", file];
    const tmux = new TmuxReference();
    t.after(() => tmux.kill());
    tmux.start(argv, dir);
    const s = await openSession(t, backend, { argv, cwd: dir, cols: COLS, rows: ROWS, env: ENV });
    await s.wait({ regex: "^line 1: the quick[\\s\\S]*sample.txt", timeoutMs: 15_000 });
    await s.wait({ stableMs: 300, timeoutMs: 15_000 });
    await assertSameScreen(s, tmux, "start");
    const steps: Step[] = [
      { keys: ["Space"], expect: /^line 2[34]:/ },
      { text: "/line 5", expect: /^\/line 5$/m },
      { keys: ["Enter"], expect: /^line 5[0-9]?:/ },
      { keys: ["G"], expect: /^line 60:[^\n]*\n\(END\)/m },
      { keys: ["g", "Down", "Down", "Down"], expect: /^line 4:/ },
      { text: "-N", keys: ["Enter"], expect: /^ +4 line 4:/ },
      { keys: ["PageDown"], expect: /^ +2[67] line/ },
      { keys: ["b"], expect: /^ +[1-4] / },
    ];
    for (const [i, step] of steps.entries()) {
      await both(s, tmux, step);
      await assertSameScreen(s, tmux, `step ${i + 1} ${JSON.stringify(step)}`);
    }
    await s.sendKeys(["q"]);
    assert.equal((await s.wait({ exit: true, timeoutMs: 10_000 })).snapshot.exit?.code, 0);
  });
}
