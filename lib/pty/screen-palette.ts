// Colours as a picture draws them: the 16 ANSI colours of xterm.js's default
// theme (the emulator corral uses), the 6x6x6 cube and the grey ramp of the
// 256-colour palette, and the default foreground and background.
import type { CellStyle, Colour } from "./screen-styles.ts";

export const DEFAULT_FG = "#d3d7cf";
export const DEFAULT_BG = "#1e1e1e";

const ANSI16 = [
  "#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b", "#06989a", "#d3d7cf",
  "#555753", "#ef2929", "#8ae234", "#fce94f", "#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec",
];
const CUBE = [0, 95, 135, 175, 215, 255];

function hex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** The #rrggbb of a palette index 0-255. */
export function paletteColour(index: number): string {
  if (index < 16) return ANSI16[index] as string;
  if (index < 232) {
    const n = index - 16;
    return hex(CUBE[Math.floor(n / 36)] as number, CUBE[Math.floor(n / 6) % 6] as number, CUBE[n % 6] as number);
  }
  const grey = 8 + 10 * (index - 232);
  return hex(grey, grey, grey);
}

function resolve(colour: Colour, fallback: string): string {
  if (colour === null) return fallback;
  return typeof colour === "string" ? colour : paletteColour(colour);
}

/** The foreground and background a cell is painted with, inverse applied. */
export function paintOf(style: CellStyle): { fg: string; bg: string; bgIsDefault: boolean } {
  const fg = resolve(style.fg, DEFAULT_FG);
  const bg = resolve(style.bg, DEFAULT_BG);
  if (style.inverse) return { fg: bg, bg: fg, bgIsDefault: false };
  return { fg, bg, bgIsDefault: style.bg === null };
}

/** Text split into what each cell (or pair of cells, for wide characters) shows. */
export function cellTexts(text: string): string[] {
  return [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text)].map((s) => s.segment);
}
