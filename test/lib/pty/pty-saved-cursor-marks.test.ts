// Two terminal-fidelity cases, with tmux as the reference: a cursor saved
// with DECSC before lines scroll into the scrollback is restored to the same
// screen row (xterm.js alone moved it up a row per line scrolled away, right
// only with no scrollback), and a combining mark written after a move into a
// never-written cell sits on that cell as tmux shows it, not on the
// character before it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TmuxReference } from "../../support/tmux-reference.ts";
import { waitFor } from "../../support/wait.ts";
import { backends, openSession } from "../../support/pty-fixture.ts";

const COLS = 20;
const ROWS = 10;
const CASES: Record<string, { script: string; done: string }> = {
  // Save at row 5 col 3, scroll 12 lines from row 10, restore, write X.
  "DECSC, lines scrolled away, DECRC": { script: "printf '\\033[5;3H\\0337\\033[10;1H'; seq 1 12; printf '\\0338X'; read x", done: "X" },
  "CSI s, lines scrolled away, CSI u": { script: "printf '\\033[5;3H\\033[s\\033[10;1H'; seq 1 12; printf '\\033[uX'; read x", done: "X" },
  // "ab", cursor to column 5 (cells 3 and 4 never written), U+0301, Z.
  "combining mark in a never-written cell": { script: "printf 'ab\\033[5G\\314\\201Z'; read x", done: "Z" },
};

for (const backend of backends) {
  for (const [name, { script, done }] of Object.entries(CASES)) {
    for (const scrollback of [0, 100]) {
      test(`[${backend}] ${name} (scrollback ${scrollback}): the screen and cursor tmux shows`, async (t) => {
        const tmux = new TmuxReference();
        t.after(() => tmux.kill());
        tmux.start(["sh", "-c", script], { cols: COLS, rows: ROWS, cwd: "/", history: scrollback });
        const s = await openSession(t, backend, { argv: ["sh", "-c", script], cols: COLS, rows: ROWS, scrollback });
        assert.equal((await s.wait({ text: done, timeoutMs: 15_000 })).fired, "text", "the script ran to its end");
        const want = await waitFor(() => {
          const rows = tmux.capture();
          return rows.some((row) => row.includes(done)) ? rows : undefined;
        }, { timeoutMs: 15_000, what: `tmux to show ${done}` });
        const screen = await s.screen();
        const rows = [...screen.lines];
        while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
        assert.deepEqual(rows, want, "the rows tmux shows");
        const { row, col } = screen.cursor;
        assert.deepEqual({ row, col }, tmux.cursor(), "the cursor where tmux has it");
      });
    }
  }
}
