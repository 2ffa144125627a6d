// The rows of a screen as last read, kept so a read after a change reads
// again only the rows that changed. A screen read makes each visible row's
// text and colour runs from xterm's cells (screen-grid.ts): about half of
// what a `pty screen` cost the agent in a lockstep send+screen pair, while
// the send changed one or two rows (issue 33). xterm says nothing about which
// rows changed, so a row is known unchanged by its cells: the same BufferLine
// (a row keeps its object as it scrolls) holding the same cell words as when
// it was read. What a row shows is made from those words alone, with one
// exception: a cell holding a combined character keeps its text elsewhere
// (xterm's `_combined`), so a row with one is never kept.
import { Buffer } from "node:buffer";
import type { IBufferCell, IBufferLine } from "@xterm/headless";

/** What a row was read as: its text (trailing spaces trimmed) and its colour runs. */
export interface RowRead {
  readonly text: string;
  readonly runs: string;
}

interface Kept extends RowRead {
  /** A copy of the row's cell words, as bytes (compared with one memcmp). */
  readonly cells: Buffer;
  readonly length: number;
  readonly cols: number;
}

/** xterm's content word: this bit marks a cell whose text is in the row's `_combined`. */
const COMBINED = 0x200000;

/**
 * Rows kept: twice a screen's height, so the rows that scrolled out of sight
 * since the last read go first (a Map keeps the order keys were set in).
 */
const KEPT_PER_ROW = 2;

/** One emulator's rows as last read; made anew with the emulator. */
export class RowReads {
  readonly #kept = new Map<object, Kept>();

  /**
   * The row's read, kept from before when its cells are as they were, else
   * made by `make` (and kept when it may be). `rows`: the screen's height.
   */
  read(line: IBufferLine, cols: number, rows: number, cell: IBufferCell, make: (line: IBufferLine, cols: number, cell: IBufferCell) => RowRead): RowRead {
    // deno-lint-ignore no-explicit-any -- the cells live on xterm's private BufferLine (as screen-grid.ts's defaultRun reads them)
    const inner = (line as any)._line as { _data?: unknown; length?: unknown } | undefined;
    const data = inner?._data;
    const length = inner?.length;
    if (inner === undefined || !(data instanceof Uint32Array) || typeof length !== "number" || 3 * length > data.length) return make(line, cols, cell);
    const words = 3 * length;
    const kept = this.#kept.get(inner);
    const now = Buffer.from(data.buffer, data.byteOffset, 4 * words);
    if (kept !== undefined && kept.length === length && kept.cols === cols && kept.cells.equals(now)) return kept;
    const read = make(line, cols, cell);
    if (hasCombined(data, words)) {
      this.#kept.delete(inner);
      return read;
    }
    const cells = kept !== undefined && kept.cells.length === now.length ? kept.cells : Buffer.allocUnsafe(now.length);
    now.copy(cells);
    this.#kept.delete(inner);
    this.#kept.set(inner, { text: read.text, runs: read.runs, cells, length, cols });
    const limit = KEPT_PER_ROW * rows;
    for (const key of this.#kept.keys()) {
      if (this.#kept.size <= limit) break;
      this.#kept.delete(key);
    }
    return read;
  }
}

function hasCombined(data: Uint32Array, words: number): boolean {
  for (let i = 0; i < words; i += 3) if (((data[i] as number) & COMBINED) !== 0) return true;
  return false;
}
