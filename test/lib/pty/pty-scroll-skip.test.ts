// Skipping scrolled-out text must never change what the screen shows: the
// same random output, cut into the same batches, goes through one terminal
// with skipping and one without, and every cell, attribute, the cursor and
// the scrollback must be equal.
import { test } from "node:test";
import assert from "node:assert/strict";
import xterm from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import { skipScrolledOut } from "../../../lib/pty/scroll-skip.ts";

// deno-lint-ignore no-explicit-any -- xterm keeps these on its private core
type Core = any;

function makeTerminal(cols: number, rows: number, scrollback: number): Terminal {
  return new xterm.Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: "off" });
}

function write(term: Terminal, data: Uint8Array): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

function contextOf(term: Terminal, scrollback: number, previousByte: number) {
  const core = (term as unknown as { _core: Core })._core;
  const buffer = core.buffer;
  return {
    table: core._inputHandler._parser._transitions.table as Uint8Array,
    state: core._inputHandler._parser.currentState as number,
    fullScrollRegion: buffer.scrollTop === 0 && buffer.scrollBottom === term.rows - 1 && !term.modes.reverseWraparoundMode,
    rows: term.rows,
    keepLines: term.rows + scrollback,
    previousByte,
  };
}

/** Everything visible or kept: text, attributes of every cell, cursor, which buffer. */
function dump(term: Terminal): string {
  const buffer = term.buffer.active;
  const out: string[] = [`${buffer.type} cursor ${buffer.cursorX},${buffer.cursorY} base ${buffer.baseY} len ${buffer.length}`];
  const cell = buffer.getNullCell();
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (line === undefined) continue;
    let attrs = "";
    for (let x = 0; x < term.cols; x++) {
      line.getCell(x, cell);
      attrs += `${cell.getChars()}|${cell.getWidth()}|${cell.getFgColorMode()}:${cell.getFgColor()}|${cell.getBgColorMode()}:${cell.getBgColor()}|${cell.isBold()}${cell.isInverse()};`;
    }
    out.push(`${line.isWrapped ? "+" : " "}${line.translateToString(false)} ${attrs}`);
  }
  return out.join("\n");
}

// A seeded generator so a failure can be replayed.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  () => "plain line of text\r\n",
  () => "x".repeat(100) + "\r\n", // wraps at 80 columns
  () => "héllo wörld 漢字 ünïcödé\r\n",
  () => "\x1b[31mred\x1b[0m and \x1b[1;44mbold on blue\x1b[m\r\n",
  () => "\x1b[38;2;10;20;30mtrue colour\r\n",
  () => "bare lf\n",
  () => "tab\there\tand\bback\r\n",
  () => "\x1b]0;a title\x07",
  () => "\x1b[2;5H",
  () => "\x1b[K",
  () => "\x1b[3;20r",
  () => "\x1b[r",
  () => "\x1b[?1049h",
  () => "\x1b[?1049l",
  () => "\x1b[?25l",
  () => "\x0e\x0f",
  () => "\x1b(0lqqk\x1b(B\r\n",
  () => "\x1b[4h insert \x1b[4l\r\n",
  () => "\x1bP1$r\x1b\\",
  () => "\xc2\x9b31m", // a C1 CSI in UTF-8
  () => "\x1b[",
  () => "\r",
  () => "\x1b[?45h\x1b[?45l",
];

async function compare(seed: number, cols: number, rows: number, scrollback: number): Promise<number> {
  const random = rng(seed);
  const parts: string[] = [];
  for (let stretch = 0; stretch < 12; stretch++) {
    // Stretches of plain lines (what floods are made of, SGR included)
    // between stretches of anything at all.
    const plain = stretch % 2 === 0;
    const count = plain ? 20 + Math.floor(random() * 400) : 1 + Math.floor(random() * 60);
    for (let i = 0; i < count; i++) {
      const piece = plain ? PIECES[Math.floor(random() * 5)] : PIECES[Math.floor(random() * PIECES.length)];
      parts.push(piece?.() ?? "");
    }
  }
  const data = new TextEncoder().encode(parts.join(""));
  const full = makeTerminal(cols, rows, scrollback);
  const skipped = makeTerminal(cols, rows, scrollback);
  let saved = 0;
  let at = 0;
  let previousByte = -1;
  while (at < data.length) {
    const size = 1 + Math.floor(random() * 8000);
    const batch = data.subarray(at, at + size);
    at += batch.length;
    const out = skipScrolledOut(batch, contextOf(skipped, scrollback, previousByte));
    saved += batch.length - out.length;
    previousByte = batch[batch.length - 1] ?? -1;
    await write(full, batch);
    await write(skipped, out);
  }
  assert.equal(dump(skipped), dump(full), `seed ${seed} ${cols}x${rows} scrollback ${scrollback}`);
  full.dispose();
  skipped.dispose();
  return saved;
}

test("skipped and fully parsed screens are identical on random output", async () => {
  let saved = 0;
  for (let seed = 1; seed <= Number(process.env.CORRAL_SKIP_SEEDS ?? 30); seed++) {
    saved += await compare(seed, 80, 24, 0);
    saved += await compare(seed + 1000, 40, 10, seed % 3 === 0 ? 50 : 0);
  }
  assert.ok(saved > 0, "the random output gave skipping something to do");
});

test("a plain flood is mostly skipped, and the screen is still exact", async () => {
  const lines = [];
  for (let i = 0; i < 50_000; i++) lines.push(`line ${i} of the flood`);
  const data = new TextEncoder().encode(lines.join("\r\n") + "\r\n");
  const term = makeTerminal(80, 24, 0);
  const out = skipScrolledOut(data, contextOf(term, 0, -1));
  assert.ok(out.length < data.length / 100, `kept ${out.length} of ${data.length} bytes`);
  await write(term, out);
  assert.equal(term.buffer.active.getLine(22)?.translateToString(true), "line 49999 of the flood");
  assert.equal(term.buffer.active.getLine(0)?.translateToString(true), "line 49977 of the flood");
});

test("nothing is skipped with a scroll region, or when the run is too short", () => {
  const data = new TextEncoder().encode("a line\r\n".repeat(1000));
  const term = makeTerminal(80, 24, 0);
  const ctx = contextOf(term, 0, -1);
  assert.equal(skipScrolledOut(data, { ...ctx, fullScrollRegion: false }), data);
  const short = new TextEncoder().encode("a line\r\n".repeat(47));
  assert.equal(skipScrolledOut(short, ctx), short, "47 lines cannot hold 24 to drop and 24 to keep");
  const colour = new TextEncoder().encode("\x1b]0;title".repeat(1) + "a line\r\n".repeat(1000));
  assert.equal(skipScrolledOut(colour, ctx), colour, "inside an OSC string nothing is text");
});
