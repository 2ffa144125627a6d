// A row of plain cells read in one pass over xterm's cell words. Most rows
// of most screens hold only characters below U+0300 in cells one column
// wide: no combining mark (line-text.ts's slow path), no wide character, no
// text kept in xterm's `_combined`. For those the row's text (trailing
// spaces and never-written cells trimmed, as translateToString(true) and the
// trim make it) and whether every cell has default colours come from one
// loop, where xterm's own path walked the row three times and ran two
// regular expressions (about a tenth of the agent's time in a lockstep
// send+screen pair, issue 33). Any other row is read the general way.
import type { IBufferLine } from "@xterm/headless";

/** What a plain row was read as; `defaultColours`: every cell has default colours and attributes. */
export interface PlainRow {
  readonly text: string;
  readonly defaultColours: boolean;
}

// xterm's content word: the code point, a flag for text kept in `_combined`, the width.
const CODEPOINT = 0x1fffff;
const HAS_CONTENT = 0x3fffff;
const COMBINED = 0x200000;
/** Below this no character is a combining mark or wider than one column. */
const FIRST_MARK = 0x300;
const SPACE = 0x20;
/** Rows up to this many cells are joined character by character; longer ones made in one call. */
const SHORT_ROW = 8;

/** The row read in one pass, or undefined when it is not plain (or xterm keeps its cells elsewhere). */
export function plainRow(line: IBufferLine, cols: number): PlainRow | undefined {
  // deno-lint-ignore no-explicit-any -- the cell array lives on xterm's private BufferLine (as row-reads.ts reads it)
  const inner = (line as any)._line as { _data?: unknown; length?: unknown } | undefined;
  const data = inner?._data;
  const length = inner?.length;
  if (!(data instanceof Uint32Array) || length !== cols || 3 * length > data.length) return undefined;
  let end = 0;
  let defaultColours = true;
  for (let x = 0; x < length; x++) {
    const at = 3 * x;
    if (((data[at + 1] as number) | (data[at + 2] as number)) !== 0) defaultColours = false;
    const content = data[at] as number;
    const shown = content & HAS_CONTENT;
    if (shown === 0 || shown === SPACE) continue;
    if ((content & COMBINED) !== 0 || (content & CODEPOINT) >= FIRST_MARK || content >> 22 !== 1) return undefined;
    end = x + 1;
  }
  return { text: textOf(data, end), defaultColours };
}

/** The text of the row's first `end` cells (never-written ones as spaces). */
function textOf(data: Uint32Array, end: number): string {
  if (end <= SHORT_ROW) {
    let text = "";
    for (let x = 0; x < end; x++) text += String.fromCharCode((data[3 * x] as number) & CODEPOINT || SPACE);
    return text;
  }
  const units = new Array<number>(end);
  for (let x = 0; x < end; x++) units[x] = (data[3 * x] as number) & CODEPOINT || SPACE;
  return String.fromCharCode.apply(null, units);
}
