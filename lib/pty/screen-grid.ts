// Reading an xterm buffer into plain data: the rows a person sees, where the
// cursor is, and a hash of everything visible (text, colours, attributes,
// cursor, size, title) so `changed` means "a person would see a difference".
import * as crypto from "node:crypto";
import type { IBufferCell, IBufferLine, Terminal } from "@xterm/headless";
import { lineText } from "./line-text.ts";
import { plainRow } from "./plain-row.ts";
import type { RowReads } from "./row-reads.ts";

/** What is on the screen now, without the session's liveness facts. */
export interface ScreenGrid {
  /** Visible rows top to bottom, trailing spaces trimmed; always `size.rows` entries. */
  readonly lines: string[];
  /** Lines above the visible grid, oldest first; only when asked for. */
  readonly scrollback?: string[];
  readonly cursor: { readonly row: number; readonly col: number; readonly visible: boolean };
  readonly size: { readonly cols: number; readonly rows: number };
  readonly alternateScreen: boolean;
  readonly title: string;
  /** Hex digest of the visible contents. */
  readonly hash: string;
}

/** What readGrid needs besides the terminal: state xterm keeps private. */
export interface GridReadOptions {
  readonly cursorVisible: boolean;
  readonly title: string;
  readonly scrollback: number;
  /** The emulator's rows as last read: rows whose cells did not change are not read again. */
  readonly rowReads?: RowReads;
}

/** The grid of `term`'s active buffer. */
export function readGrid(term: Terminal, options: GridReadOptions): ScreenGrid {
  const buffer = term.buffer.active;
  const rows: string[] = [];
  // What is hashed is built as one string and hashed in one call: the same
  // digest as feeding it piece by piece, without a crossing into the hash's
  // native code for each of a row's four pieces (issue 33: a quarter of a
  // screen read's time went to those calls).
  let hashed = `${term.cols}x${term.rows}|${buffer.cursorX},${buffer.cursorY},${options.cursorVisible}|${options.title}\n`;
  const cell = buffer.getNullCell();
  const rowReads = options.rowReads;
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    if (line === undefined) {
      rows.push("");
      hashed += "\u0000\n";
      continue;
    }
    const { text, runs } = rowReads === undefined ? readRow(line, term.cols, cell) : rowReads.read(line, term.cols, term.rows, cell, readRow);
    rows.push(text);
    hashed += `${text}\u0000${runs}\n`;
  }
  const grid: ScreenGrid = {
    lines: rows,
    cursor: { row: buffer.cursorY, col: buffer.cursorX, visible: options.cursorVisible },
    size: { cols: term.cols, rows: term.rows },
    alternateScreen: buffer.type === "alternate",
    title: options.title,
    hash: sha256Hex(hashed).slice(0, 16),
  };
  if (options.scrollback > 0) {
    const from = Math.max(0, buffer.baseY - options.scrollback);
    const above: string[] = [];
    for (let y = from; y < buffer.baseY; y++) above.push(lineText(buffer.getLine(y), cell).replace(/ +$/, ""));
    return { ...grid, scrollback: above };
  }
  return grid;
}

/** One row's text (trailing spaces trimmed) and colour runs, read from its cells. */
function readRow(line: IBufferLine, cols: number, cell: IBufferCell): { text: string; runs: string } {
  const plain = plainRow(line, cols);
  // The one pass already knows whether every cell has default colours: no second look at them.
  if (plain !== undefined) return { text: plain.text, runs: plain.defaultColours ? DEFAULT_RUN : colouredRuns(line, cols, cell) };
  // translateToString(true) keeps spaces a program wrote; a person cannot see them either.
  return { text: lineText(line, cell).replace(/ +$/, ""), runs: attributeRuns(line, cols, cell) };
}

// Node's one-shot crypto.hash (Node 20.12 and later) gives the digest
// createHash gives, in about a third of the time: a createHash object cost
// 3 µs of every changed screen read (issue 33). Deno 2 and Bun have it too;
// a Node before 20.12 has createHash only. Looked up on first use: the hot
// bundles load node:crypto only when it is touched (cli/hot/build.mjs).
type OneShot = (algorithm: string, data: string, encoding: "hex") => string;
let oneShot: OneShot | null | undefined;
function sha256Hex(text: string): string {
  oneShot ??= (crypto as { hash?: OneShot }).hash ?? null;
  return oneShot !== null ? oneShot("sha256", text, "hex") : crypto.createHash("sha256").update(text).digest("hex");
}

/** The runs of a row whose every cell has default colours. */
const DEFAULT_RUN = "0:d;";

// Colour and attribute changes along a row, as "col:fg/bg/flags;" runs: a
// menu that moves its highlight changes no text but must change the hash.
function attributeRuns(line: IBufferLine, cols: number, cell: IBufferCell): string {
  return defaultRun(line, cols) ?? colouredRuns(line, cols, cell);
}

/** The runs read cell by cell (a row known to have a cell of other colours). */
function colouredRuns(line: IBufferLine, cols: number, cell: IBufferCell): string {
  let runs = "";
  let previous = "";
  for (let x = 0; x < cols; x++) {
    if (line.getCell(x, cell) === undefined) break;
    const attrs = cell.isAttributeDefault()
      ? "d"
      : `${cell.getFgColorMode()}.${cell.getFgColor()}/${cell.getBgColorMode()}.${cell.getBgColor()}/${flags(cell)}`;
    if (attrs !== previous) {
      runs += `${x}:${attrs};`;
      previous = attrs;
    }
  }
  return runs;
}

/**
 * The runs of a row whose every cell has default colours and attributes
 * (most rows of most screens), read from xterm's cell array without loading
 * each cell: a cell is default when its fg and bg words are both 0, exactly
 * as IBufferCell.isAttributeDefault() decides. Undefined when the row has
 * another cell, or when a future xterm keeps its cells elsewhere.
 */
function defaultRun(line: IBufferLine, cols: number): string | undefined {
  // deno-lint-ignore no-explicit-any -- the cell array lives on xterm's private BufferLine
  const inner = (line as any)._line as { _data?: unknown; length?: unknown } | undefined;
  const data = inner?._data;
  if (!(data instanceof Uint32Array) || typeof inner?.length !== "number") return undefined;
  const cells = Math.min(cols, inner.length, Math.floor(data.length / 3));
  for (let x = 0; x < cells; x++) if (data[3 * x + 1] !== 0 || data[3 * x + 2] !== 0) return undefined;
  return cells > 0 ? DEFAULT_RUN : "";
}

function flags(cell: IBufferCell): number {
  return (cell.isBold() ? 1 : 0) | (cell.isItalic() ? 2 : 0) | (cell.isDim() ? 4 : 0) |
    (cell.isUnderline() ? 8 : 0) | (cell.isBlink() ? 16 : 0) | (cell.isInverse() ? 32 : 0) |
    (cell.isInvisible() ? 64 : 0) | (cell.isStrikethrough() ? 128 : 0) | (cell.isOverline() ? 256 : 0);
}
