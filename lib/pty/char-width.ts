// Character widths as the C library's wcwidth() counts them. bash, readline,
// vim and every curses program size text with wcwidth; xterm.js counts by
// Unicode 6 by default (emoji one column), so their lines were drawn in the
// wrong place. The table (wcwidth-table.ts) is generated from glibc itself;
// a code point is one cell per wcwidth, nothing is clustered (a ZWJ sequence
// is as wide as its parts, as readline counts it).
import type { IUnicodeVersionProvider, Terminal } from "@xterm/headless";
import { DOUBLE_WIDTH, WCWIDTH_SOURCE, ZERO_WIDTH } from "./wcwidth-table.ts";

/** Name of the width table in xterm's registry of Unicode versions. */
export const WIDTH_TABLE = `wcwidth (${WCWIDTH_SOURCE})`;

// Widths of the Basic Multilingual Plane, one byte each: built once (64 KB)
// and shared by every terminal. Above it, a binary search over the ranges.
let bmp: Uint8Array | undefined;

function bmpWidths(): Uint8Array {
  if (bmp !== undefined) return bmp;
  const table = new Uint8Array(0x10000).fill(1);
  table.fill(0, 0, 0x20);
  table.fill(0, 0x7f, 0xa0);
  for (const [ranges, width] of [[ZERO_WIDTH, 0], [DOUBLE_WIDTH, 2]] as const) {
    for (let i = 0; i < ranges.length && (ranges[i] as number) < 0x10000; i += 2) {
      table.fill(width, ranges[i] as number, Math.min(0x10000, (ranges[i + 1] as number) + 1));
    }
  }
  bmp = table;
  return table;
}

function inRanges(ranges: Uint32Array, cp: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (ranges[mid * 2] as number)) hi = mid - 1;
    else if (cp > (ranges[mid * 2 + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Columns the C library's wcwidth() gives `cp` (controls 0, unprintable 1). */
export function charWidth(cp: number): 0 | 1 | 2 {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  if (cp < 0x10000) return bmpWidths()[cp] as 0 | 1 | 2;
  if (inRanges(ZERO_WIDTH, cp)) return 0;
  return inRanges(DOUBLE_WIDTH, cp) ? 2 : 1;
}

// xterm packs a character's properties as state << 3 | width << 1 | join.
const pack = (width: number, join: boolean): number => (width << 1) | (join ? 1 : 0);
const widthOf = (properties: number): number => (properties >> 1) & 3;

/** wcwidth for xterm: a zero-width character joins the cell before the cursor and never advances it. */
const provider: IUnicodeVersionProvider = {
  version: WIDTH_TABLE,
  wcwidth: charWidth,
  charProperties(codepoint: number, preceding: number): number {
    const width = charWidth(codepoint);
    // Joined to the previous cell (even after a cursor move, as tmux does),
    // keeping that cell's width so xterm adds no columns.
    if (width === 0) return pack(preceding === 0 ? 0 : widthOf(preceding), true);
    return pack(width, false);
  },
};

// deno-lint-ignore no-explicit-any -- the print handler and cursor live on xterm's private core
type XtermCore = any;

/** Makes `term` count widths as wcwidth does. */
export function useCLibraryWidths(term: Terminal): void {
  term.unicode.register(provider);
  term.unicode.activeVersion = provider.version;
  // xterm puts a zero-width character that has no cell to join (column 0)
  // in a cell of its own and moves on; tmux and wcwidth move nothing. Such
  // a character can only open a print run (nothing in a run moves the cursor
  // back to column 0 before a character of its own), so drop it there. When
  // a future xterm moves these internals, the fix switches itself off.
  const core = (term as unknown as { _core?: XtermCore })._core;
  const handler = core?._inputHandler;
  if (typeof handler?.print !== "function" || core?.buffer === undefined) return;
  const print = handler.print as (data: Uint32Array, start: number, end: number) => void;
  handler.print = function (data: Uint32Array, start: number, end: number): void {
    const buffer = core.buffer;
    while (start < end && buffer.x === 0 && charWidth(data[start] as number) === 0) start++;
    print.call(handler, data, start, end);
  };
}
