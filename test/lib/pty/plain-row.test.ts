// A plain row read in one pass (lib/pty/plain-row.ts) must say what the
// general read says: the same text, trailing spaces and never-written cells
// trimmed, and default colours exactly when every cell's attributes are.
// Differential over a seeded random program (test/support/random-screen-program.ts)
// and every row of the screen after each step; rows the one pass declines
// are counted, so a pass that declined everything would fail too.
// CORRALTEST_FUZZ_SEED=<seed> replays a failing run's first seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Terminal } from "@xterm/headless";
import { Emulator, loadTerminal } from "../../../lib/pty/screen-emulator.ts";
import { lineText } from "../../../lib/pty/line-text.ts";
import { plainRow } from "../../../lib/pty/plain-row.ts";
import { randomScreenStep } from "../../support/random-screen-program.ts";
import { fuzzSeed, seededRandom } from "../../support/seeded-random.ts";

const write = (term: Terminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve));

test("a plain row read in one pass equals the general read, row by row", async () => {
  const ctor = await loadTerminal();
  const first = fuzzSeed();
  let plain = 0;
  let declined = 0;
  let coloured = 0;
  for (const seed of [first, first + 1, first + 2]) {
    const emulator = new Emulator(ctor, 40, 8, 50, { onReply: () => {}, onParsed: () => {} });
    const term = emulator.term;
    const next = seededRandom(seed >>> 0).next;
    try {
      for (let i = 0; i < 300; i++) {
        let data = "";
        for (let k = 0; k < 1 + Math.floor(next() * 4); k++) data += randomScreenStep(next, term) ?? "";
        if (data !== "") await write(term, data);
        const buffer = term.buffer.active;
        const cell = buffer.getNullCell();
        for (let y = 0; y < buffer.length; y++) {
          const line = buffer.getLine(y);
          if (line === undefined) continue;
          const read = plainRow(line, term.cols);
          if (read === undefined) {
            declined++;
            continue;
          }
          plain++;
          const where = `seed ${seed}, step ${i}, line ${y}`;
          assert.equal(read.text, lineText(line, cell).replace(/ +$/, ""), `${where}: text`);
          let everyDefault = true;
          for (let x = 0; x < term.cols; x++) {
            if (line.getCell(x, cell) !== undefined && !cell.isAttributeDefault()) everyDefault = false;
          }
          assert.equal(read.defaultColours, everyDefault, `${where}: default colours`);
          if (!everyDefault) coloured++;
        }
      }
    } finally {
      emulator.dispose();
    }
  }
  assert.ok(plain > 1000 && declined > 100 && coloured > 100, `plain ${plain}, declined ${declined}, coloured ${coloured}`);
});

test("what the one pass declines: wide characters, combining marks, text kept aside", async () => {
  const TerminalClass = await loadTerminal();
  const term = new TerminalClass({ cols: 12, rows: 5, scrollback: 0, allowProposedApi: true, logLevel: "off" });
  try {
    await write(term, "plain  \r\n日本\r\ne\u0301\r\n\u00e9t\u00e9\u00a0\r\n\x1b[31mred\x1b[0m");
    const row = (y: number) => plainRow(term.buffer.active.getLine(y)!, term.cols);
    assert.deepEqual(row(0), { text: "plain", defaultColours: true });
    assert.equal(row(1), undefined);
    assert.equal(row(2), undefined);
    assert.deepEqual(row(3), { text: "\u00e9t\u00e9\u00a0", defaultColours: true }, "Latin-1 and a no-break space are plain; the no-break space stays");
    assert.deepEqual(row(4), { text: "red", defaultColours: false });
  } finally {
    term.dispose();
  }
});
