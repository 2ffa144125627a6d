// Reading an xterm buffer into plain data: the rows a person sees, where the
// cursor is, and a hash of everything visible (text, colours, attributes,
// cursor, size, title) so `changed` means "a person would see a difference".
import { createHash } from "node:crypto";
import type { IBufferCell, IBufferLine, Terminal } from "@xterm/headless";
import { lineText } from "./line-text.ts";

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
}

/** The grid of `term`'s active buffer. */
export function readGrid(term: Terminal, options: GridReadOptions): ScreenGrid {
  const buffer = term.buffer.active;
  const rows: string[] = [];
  const digest = createHash("sha256");
  digest.update(`${term.cols}x${term.rows}|${buffer.cursorX},${buffer.cursorY},${options.cursorVisible}|${options.title}\n`);
  const cell = buffer.getNullCell();
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.baseY + y);
    // translateToString(true) keeps spaces a program wrote; a person cannot see them either.
    const text = lineText(line, cell).replace(/ +$/, "");
    rows.push(text);
    digest.update(text);
    digest.update("\u0000");
    if (line !== undefined) digest.update(attributeRuns(line, term.cols, cell));
    digest.update("\n");
  }
  const grid: ScreenGrid = {
    lines: rows,
    cursor: { row: buffer.cursorY, col: buffer.cursorX, visible: options.cursorVisible },
    size: { cols: term.cols, rows: term.rows },
    alternateScreen: buffer.type === "alternate",
    title: options.title,
    hash: digest.digest("hex").slice(0, 16),
  };
  if (options.scrollback > 0) {
    const from = Math.max(0, buffer.baseY - options.scrollback);
    const above: string[] = [];
    for (let y = from; y < buffer.baseY; y++) above.push(lineText(buffer.getLine(y), cell).replace(/ +$/, ""));
    return { ...grid, scrollback: above };
  }
  return grid;
}

// Colour and attribute changes along a row, as "col:fg/bg/flags;" runs: a
// menu that moves its highlight changes no text but must change the hash.
function attributeRuns(line: IBufferLine, cols: number, cell: IBufferCell): string {
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

function flags(cell: IBufferCell): number {
  return (cell.isBold() ? 1 : 0) | (cell.isItalic() ? 2 : 0) | (cell.isDim() ? 4 : 0) |
    (cell.isUnderline() ? 8 : 0) | (cell.isBlink() ? 16 : 0) | (cell.isInverse() ? 32 : 0) |
    (cell.isInvisible() ? 64 : 0) | (cell.isStrikethrough() ? 128 : 0) | (cell.isOverline() ? 256 : 0);
}
