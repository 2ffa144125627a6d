// The screen as text with SGR escapes (`pty screen --ansi`, as tmux's
// `capture-pane -e -p`), and as the bytes that redraw it on a blank terminal
// (the first event of a recording started late, the first frame of a view).
// Each line starts from the default style and ends back in it, so lines can
// be cut, grepped or printed alone.
import { type CellStyle, type Colour, DEFAULT_STYLE, sameStyle, type StyleRun } from "./screen-styles.ts";

const FLAG_CODES: ReadonlyArray<[keyof CellStyle, number]> = [
  ["bold", 1],
  ["dim", 2],
  ["italic", 3],
  ["underline", 4],
  ["blink", 5],
  ["inverse", 7],
  ["invisible", 8],
  ["strikethrough", 9],
  ["overline", 53],
];

function colourCodes(colour: Colour, base: number, bright: number, extended: number): string[] {
  if (colour === null) return [];
  if (typeof colour === "string") {
    const value = Number.parseInt(colour.slice(1), 16);
    return [`${extended};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`];
  }
  if (colour < 8) return [String(base + colour)];
  if (colour < 16) return [String(bright + colour - 8)];
  return [`${extended};5;${colour}`];
}

/** The one SGR sequence that sets `style` from any state (it starts with a reset). */
export function sgr(style: CellStyle): string {
  const codes = ["0"];
  for (const [flag, code] of FLAG_CODES) if (style[flag] === true) codes.push(String(code));
  codes.push(...colourCodes(style.fg, 30, 90, 38), ...colourCodes(style.bg, 40, 100, 48));
  return `\x1b[${codes.join(";")}m`;
}

/** One line of runs as text with escapes; ends in the default style. */
export function ansiLine(runs: readonly StyleRun[]): string {
  let out = "";
  let current: CellStyle = DEFAULT_STYLE;
  for (const run of runs) {
    if (!sameStyle(run, current)) {
      out += sameStyle(run, DEFAULT_STYLE) ? "\x1b[0m" : sgr(run);
      current = run;
    }
    out += run.text;
  }
  if (!sameStyle(current, DEFAULT_STYLE)) out += "\x1b[0m";
  return out;
}

/** What a redraw needs to know besides the runs. */
export interface RedrawState {
  readonly cursor: { readonly row: number; readonly col: number; readonly visible: boolean };
  readonly alternateScreen: boolean;
  readonly title: string;
}

/**
 * Bytes that paint this screen on a blank terminal of the same size: the
 * alternate screen when the program is in it, every row, the title, the
 * cursor where it is and hidden when it is hidden.
 */
export function redrawSequence(lines: readonly (readonly StyleRun[])[], state: RedrawState): string {
  let out = state.alternateScreen ? "\x1b[?1049h" : "";
  out += "\x1b[0m\x1b[H\x1b[2J";
  lines.forEach((runs, row) => {
    if (runs.length > 0) out += `\x1b[${row + 1};1H${ansiLine(runs)}`;
  });
  // BEL-terminated OSC 2; control characters in a title are dropped.
  // deno-lint-ignore no-control-regex -- control characters are what is removed
  if (state.title !== "") out += `\x1b]2;${state.title.replace(/[\x00-\x1f\x7f]/g, "")}\x07`;
  out += `\x1b[${state.cursor.row + 1};${state.cursor.col + 1}H`;
  out += state.cursor.visible ? "\x1b[?25h" : "\x1b[?25l";
  return out;
}
