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
import { randomScreenStep as step } from "../../support/random-screen-program.ts";
import { fuzzSeed, seededRandom } from "../../support/seeded-random.ts";

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
