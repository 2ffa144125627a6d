// The rows of a screen as last read, kept so a read after a change reads
// again only the rows that changed. A screen read makes each visible row's
// text and colour runs from xterm's cells (screen-grid.ts): about half of
// what a `pty screen` cost the agent in a lockstep send+screen pair, while
// the send changed one or two rows (issue 33). xterm says nothing about which
// rows changed, so a row is known unchanged by its cells: the same BufferLine
// (a row keeps its object as it scrolls) holding the same cell words as when
// it was read. What a row shows is made from those words alone, with one
// exception: a cell holding a combined character keeps its text elsewhere
// (xterm's `_combined`), so a row with one is never kept. Only rows worth it
// are kept (worthKeeping): a short row of default colours, as `cat`'s echo
// makes, is read again as fast as its cells are compared, and keeping those
// cost the agent about a tenth more CPU in the lockstep send+screen pair.
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
  /** The row's live cell array and a byte view of it: made once while xterm keeps that array. */
  readonly data: Uint32Array;
  readonly live: Buffer;
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
    const live = kept !== undefined && kept.data === data && kept.live.length === 4 * words ? kept.live : undefined;
    if (kept !== undefined && kept.length === length && kept.cols === cols && kept.cells.equals(live ?? view(data, words))) return kept;
    const read = make(line, cols, cell);
    if (!worthKeeping(read) || hasCombined(data, words)) {
      if (kept !== undefined) this.#kept.delete(inner);
      return read;
    }
    const now = live ?? view(data, words);
    const cells = kept !== undefined && kept.cells.length === now.length ? kept.cells : Buffer.allocUnsafe(now.length);
    now.copy(cells);
    this.#kept.delete(inner);
    this.#kept.set(inner, { text: read.text, runs: read.runs, cells, data, live: now, length, cols });
    const limit = KEPT_PER_ROW * rows;
    for (const key of this.#kept.keys()) {
      if (this.#kept.size <= limit) break;
      this.#kept.delete(key);
    }
    return read;
  }
}

/** The row's cell words as bytes (a view, not a copy). */
function view(data: Uint32Array, words: number): Buffer {
  return Buffer.from(data.buffer, data.byteOffset, 4 * words);
}

/**
 * Whether a row is worth keeping: reading a short row of default colours
 * again costs about what comparing its cells does (the agent measured no gain
 * keeping `cat`'s rows, and the compare's cost on top), a row of colours or a
 * longer one several times more.
 */
function worthKeeping(read: RowRead): boolean {
  return read.text.length >= 16 || (read.runs !== "" && read.runs !== "0:d;");
}

function hasCombined(data: Uint32Array, words: number): boolean {
  for (let i = 0; i < words; i += 3) if (((data[i] as number) & COMBINED) !== 0) return true;
  return false;
}
