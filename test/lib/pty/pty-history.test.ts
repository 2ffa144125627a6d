// Growing a terminal brings back lines that scrolled off, from the session's
// history (2000 lines by default, as tmux keeps): 80x24 -> 80x30 -> 40x10 ->
// 100x30 on `seq` output and on a shell with wrapped lines gives, at every
// step, the screen and cursor tmux gives with its history. `screen` still
// shows the visible grid only unless asked for scrollback.
import { test } from "node:test";
import { scratchDir } from "../../support/scratch-dir.ts";
import assert from "node:assert/strict";
import type { PtySession } from "../../../lib/pty/session.ts";
import { TmuxReference, normalizeRows } from "../../support/tmux-reference.ts";
import { waitFor } from "../../support/wait.ts";
import { backends, openSession } from "../../support/pty-fixture.ts";

const ENV = { LANG: "C.UTF-8", PS1: "$ ", HISTFILE: "/dev/null" };
const SIZES: readonly [number, number][] = [[80, 30], [40, 10], [100, 30]];

async function assertSame(session: PtySession, tmux: TmuxReference, step: string): Promise<void> {
  let last = "";
  try {
    await waitFor(async () => {
      const snap = await session.screen({ peek: true });
      const ours = normalizeRows(snap.lines);
      const theirs = tmux.capture();
      const c = tmux.cursor();
      last = `ours ${snap.cursor.row},${snap.cursor.col} tmux ${c.row},${c.col}\n${ours.join("\n")}\n--- tmux\n${theirs.join("\n")}`;
      return JSON.stringify(ours) === JSON.stringify(theirs) && snap.cursor.row === c.row && snap.cursor.col === c.col;
    }, { timeoutMs: 30_000, intervalMs: 50, what: step });
  } catch {
    assert.fail(`${step}: the screens differ\n${last}`);
  }
}

/** `fits`: the output fits the last size whole, so no scrollback is left to ask for. */
const OUTPUTS: readonly { name: string; command: string; last: string; sizes?: readonly [number, number][]; fits?: boolean }[] = [
  { name: "seq output", command: "clear; seq 1 50", last: "50" },
  { name: "a shell with wrapped lines", command: 'clear; for i in $(seq 1 30); do printf "$i:%s-" $(seq 1 25); echo; done', last: "30:1-" },
  // A screen not yet full: narrowing rewraps the long lines into more rows, and tmux keeps the
  // rows under the prompt and the prompt's row, pushing the top lines into its history
  // (reflow-rows.ts); xterm.js alone dropped the rows under the prompt and moved it down.
  {
    name: "a screen not yet full, long lines",
    command: "clear; seq -s' ' 1 30; seq -s' ' 100 125; echo short",
    last: "short",
    sizes: [[40, 24], [100, 24], [30, 10], [80, 24]],
    fits: true,
  },
];

for (const backend of backends) {
  for (const output of OUTPUTS) {
    const sizes = output.sizes ?? SIZES;
    test(`[${backend}] ${output.name}: 80x24 -> ${sizes.map(([c, r]) => `${c}x${r}`).join(" -> ")} as tmux with its history`, async (t) => {
      const dir = scratchDir(t, "corral-pty-history-");
      const argv = ["bash", "--norc", "--noprofile"];
      const tmux = new TmuxReference();
      t.after(() => tmux.kill());
      tmux.start(argv, { cols: 80, rows: 24, cwd: dir, env: ENV });
      const s = await openSession(t, backend, { argv, cwd: dir, cols: 80, rows: 24, env: ENV });
      assert.equal((await s.wait({ text: "$ ", timeoutMs: 30_000 })).fired, "text", "bash's prompt");
      // bash reads its line before we type (keys typed earlier are not lost,
      // but this keeps the test about history, not about start-up races).
      assert.equal((await s.wait({ ready: true, timeoutMs: 30_000 })).fired, "ready", "bash waits for input");
      await waitFor(() => tmux.capture()[0] === "$", { timeoutMs: 15_000, what: "tmux's prompt" });
      s.write(`${output.command}\r`);
      tmux.text(output.command);
      tmux.keys("Enter");
      const done = (rows: readonly string[]) => rows.some((r) => r.startsWith(output.last)) && rows[rows.length - 1] === "$";
      let ours: readonly string[] = [];
      try {
        await waitFor(async () => done(ours = normalizeRows((await s.screen({ peek: true })).lines)), { timeoutMs: 30_000 });
      } catch {
        assert.fail(`our output did not end with ${output.last}... and a prompt; the screen:\n${ours.join("\n")}`);
      }
      await waitFor(() => done(tmux.capture()), { timeoutMs: 30_000, what: "tmux's output" });
      await assertSame(s, tmux, "80x24");
      for (const [cols, rows] of sizes) {
        s.resize(cols, rows);
        tmux.resize(cols, rows);
        await assertSame(s, tmux, `${cols}x${rows}`);
        const snap = await s.screen();
        assert.equal(snap.lines.length, rows, "the visible grid only");
        assert.equal(snap.scrollback, undefined, "no scrollback unless asked");
      }
      if (output.fits !== true) {
        const withHistory = await s.screen({ scrollback: 5 });
        assert.equal(withHistory.scrollback?.length, 5, "scrollback when asked");
      }
    });
  }

  test(`[${backend}] a session opened with --scrollback 0 has no history to bring back`, async (t) => {
    const s = await openSession(t, backend, { argv: ["seq", "1", "50"], cols: 80, rows: 24, scrollback: 0 });
    assert.equal((await s.wait({ exit: true, timeoutMs: 15_000 })).fired, "exit", "seq exited");
    s.resize(80, 30);
    const snap = await s.screen();
    assert.equal(snap.lines[0], "28", "the old rows stay at the top");
    assert.deepEqual(snap.lines.slice(23), ["", "", "", "", "", "", ""]);
  });
}
