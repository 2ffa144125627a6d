// A screen read that keeps the rows it read before (lib/pty/row-reads.ts)
// must give exactly what a read from scratch gives, whatever the program
// did in between: the same lines, the same hash. Differential: a seeded
// random program (text of every width, combining marks, colours, cursor
// moves, erases, inserted and deleted lines, scroll regions, the alternate
// screen, resets, resizes) drives one terminal, and after each step the
// kept read and a fresh read of that same terminal are compared.
// CORRALTEST_FUZZ_SEED=<seed> replays a failing run's first seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Emulator, loadTerminal } from "../../../lib/pty/screen-emulator.ts";
import { readGrid } from "../../../lib/pty/screen-grid.ts";
import { RowReads } from "../../../lib/pty/row-reads.ts";
import type { Terminal } from "@xterm/headless";
import { fuzzSeed, seededRandom } from "../../support/seeded-random.ts";

const TEXTS = ["hello", "x", "   spaced   ", "日本語", "e\u0301", "a\u0308", "o\u0303\u0301", "\u0301", "🙂", "a\tb", "wrap".repeat(9), "z\b\by"];

function step(next: () => number, term: Terminal): string | null {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const n = (max: number) => 1 + Math.floor(next() * max);
  switch (Math.floor(next() * 14)) {
    case 0:
    case 1:
    case 2:
      return pick(TEXTS);
    case 3:
      return "\r\n";
    case 4:
      return `\x1b[${pick(["0", "1", "4", "7", "31", "42", "38;5;200", "48;2;1;2;3", "1;33;44"])}m`;
    case 5:
      return `\x1b[${n(term.rows)};${n(term.cols)}H`;
    case 6:
      return `\x1b[${pick(["", "1", "2"])}K`;
    case 7:
      return `\x1b[${pick(["", "1", "2"])}J`;
    case 8:
      return `\x1b[${n(3)}${pick(["L", "M", "@", "P", "X"])}`;
    case 9:
      return `\x1b[${n(Math.max(1, term.rows - 1))};${term.rows}r`;
    case 10:
      return pick(["\x1b[?1049h", "\x1b[?1049l", "\x1bM", "\x1bD", "\x1b[r"]);
    case 11:
      return next() < 0.1 ? "\x1bc" : "\x1b[2m dim \x1b[22m";
    case 12:
      term.resize(20 + Math.floor(next() * 40), 4 + Math.floor(next() * 8));
      return null;
    default:
      return "\x1b]2;title " + n(9) + "\x07";
  }
}

const write = (term: Terminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve));

test("a read that keeps unchanged rows equals a read from scratch, step by step", async () => {
  const ctor = await loadTerminal();
  const first = fuzzSeed();
  for (const seed of [first, first + 1, first + 2]) {
    // The emulator as the agent makes it (xterm with corral's fixes, e.g. erase-above.ts).
    const emulator = new Emulator(ctor, 40, 8, 50, { onReply: () => {}, onParsed: () => {} });
    const term = emulator.term;
    const rowReads = new RowReads();
    const next = seededRandom(seed >>> 0).next;
    let kept = 0;
    try {
      for (let i = 0; i < 400; i++) {
        let data = "";
        for (let k = 0; k < 1 + Math.floor(next() * 4); k++) data += step(next, term) ?? "";
        if (data !== "") await write(term, data);
        const options = { cursorVisible: true, title: "", scrollback: 0 };
        const fresh = readGrid(term, options);
        const again = readGrid(term, { ...options, rowReads });
        assert.deepEqual(again.lines, fresh.lines, `seed ${seed}, step ${i}: lines`);
        assert.equal(again.hash, fresh.hash, `seed ${seed}, step ${i}: hash`);
        // Read once more: every row now comes from what was kept.
        const third = readGrid(term, { ...options, rowReads });
        assert.deepEqual(third.lines, fresh.lines);
        assert.equal(third.hash, fresh.hash);
        if (third.lines.some((line) => line !== "")) kept++;
      }
    } finally {
      emulator.dispose();
    }
    assert.ok(kept > 100, `seed ${seed}: the screen had text in ${kept} of 400 steps`);
  }
});

test("a row written over in place is read again; a row left alone is not", async () => {
  const TerminalClass = await loadTerminal();
  const term = new TerminalClass({ cols: 20, rows: 3, scrollback: 0, allowProposedApi: true, logLevel: "off" });
  try {
    const rowReads = new RowReads();
    const fresh = { cursorVisible: true, title: "", scrollback: 0 };
    const options = { ...fresh, rowReads };
    await write(term, "first\r\nsecond");
    assert.deepEqual(readGrid(term, options).lines, ["first", "second", ""]);
    // Same rows, same objects: one cell of row 1 changes, colour only on row 0.
    await write(term, "\x1b[2;1HS\x1b[1;1H\x1b[31mf\x1b[0m");
    const read = readGrid(term, options);
    assert.deepEqual(read.lines, ["first", "Second", ""]);
    assert.equal(read.hash, readGrid(term, fresh).hash, "the colour change is in the hash");
    // A combined character keeps its text outside the cell words: another one in the same cell changes no word.
    await write(term, "\x1b[3;1He\u0301");
    assert.equal(readGrid(term, options).lines[2], "e\u0301");
    await write(term, "\x1b[3;1Ha\u0308");
    assert.equal(readGrid(term, options).lines[2], "a\u0308");
  } finally {
    term.dispose();
  }
});
