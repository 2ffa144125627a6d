// Colours and attributes of the visible screen, as runs of cells that look
// alike: what `pty screen --json --styles` reports and what the ANSI, SVG and
// HTML renderings are drawn from. Runtime neutral (no Node APIs): the
// renderers run in the client, the reader in the agent.
import type { IBufferCell, IBufferLine, Terminal } from "@xterm/headless";

/** null: the terminal's default; 0-255: a palette index; "#rrggbb": truecolour. */
export type Colour = null | number | string;

/** How a cell is drawn; every flag is present so the JSON shape never varies. */
export interface CellStyle {
  readonly fg: Colour;
  readonly bg: Colour;
  readonly bold: boolean;
  readonly dim: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  readonly blink: boolean;
  readonly inverse: boolean;
  readonly invisible: boolean;
  readonly strikethrough: boolean;
  readonly overline: boolean;
}

/**
 * Cells [from, to) of one line drawn alike; `text` is what they hold (a wide
 * character counts two cells and appears once; an empty cell is a space).
 * A run holds only wide or only narrow characters.
 */
export interface StyleRun extends CellStyle {
  readonly from: number;
  readonly to: number;
  readonly text: string;
}

export const DEFAULT_STYLE: CellStyle = {
  fg: null,
  bg: null,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  blink: false,
  inverse: false,
  invisible: false,
  strikethrough: false,
  overline: false,
};

/** The flag names, in the order SGR codes are written. */
export const STYLE_FLAGS = ["bold", "dim", "italic", "underline", "blink", "inverse", "invisible", "strikethrough", "overline"] as const;

export function sameStyle(a: CellStyle, b: CellStyle): boolean {
  return a.fg === b.fg && a.bg === b.bg && STYLE_FLAGS.every((flag) => a[flag] === b[flag]);
}

/** A style looks like a plain space when it holds a space: nothing coloured or drawn. */
export function isBlankStyle(style: CellStyle): boolean {
  return style.bg === null && !style.inverse && !style.underline && !style.strikethrough && !style.overline;
}

function colourOf(rgb: boolean, palette: boolean, value: number): Colour {
  if (rgb) return `#${value.toString(16).padStart(6, "0")}`;
  return palette ? value : null;
}

function styleOf(cell: IBufferCell): CellStyle {
  return {
    fg: colourOf(cell.isFgRGB(), cell.isFgPalette(), cell.getFgColor()),
    bg: colourOf(cell.isBgRGB(), cell.isBgPalette(), cell.getBgColor()),
    bold: cell.isBold() !== 0,
    dim: cell.isDim() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
    blink: cell.isBlink() !== 0,
    inverse: cell.isInverse() !== 0,
    invisible: cell.isInvisible() !== 0,
    strikethrough: cell.isStrikethrough() !== 0,
    overline: cell.isOverline() !== 0,
  };
}

/**
 * The runs of one buffer line. Trailing cells that are spaces with nothing
 * visible about them are left out (as the text rows trim their spaces);
 * a coloured bar of spaces stays.
 */
export function lineRuns(line: IBufferLine | undefined, cols: number, cell: IBufferCell): StyleRun[] {
  if (line === undefined) return [];
  const runs: { from: number; to: number; text: string; style: CellStyle; width: number }[] = [];
  let end = 0; // cells up to here are worth keeping
  for (let x = 0; x < cols; x++) {
    if (line.getCell(x, cell) === undefined) break;
    const width = cell.getWidth();
    if (width === 0) continue; // the right half of a wide character
    const chars = cell.getChars() || " ";
    const style = styleOf(cell);
    const last = runs[runs.length - 1];
    // A run never mixes wide and narrow characters: a picture spaces its characters evenly.
    if (last !== undefined && last.to === x && last.width === width && sameStyle(last.style, style)) {
      last.to = x + width;
      last.text += chars;
    } else {
      runs.push({ from: x, to: x + width, text: chars, style, width });
    }
    if (chars !== " " || !isBlankStyle(style)) end = x + width;
  }
  const kept: StyleRun[] = [];
  for (const run of runs) {
    if (run.from >= end) break;
    if (run.to <= end) {
      kept.push({ from: run.from, to: run.to, text: run.text, ...run.style });
      continue;
    }
    // Only trailing plain spaces are cut, so the text is cut by cell count.
    kept.push({ from: run.from, to: end, text: run.text.slice(0, run.text.length - (run.to - end)), ...run.style });
  }
  return kept;
}

/** Runs for each visible row of the active buffer, top to bottom. */
export function visibleRuns(term: Terminal): StyleRun[][] {
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell();
  const lines: StyleRun[][] = [];
  for (let y = 0; y < term.rows; y++) lines.push(lineRuns(buffer.getLine(buffer.baseY + y), term.cols, cell));
  return lines;
}
