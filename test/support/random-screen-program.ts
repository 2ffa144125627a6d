// One step of a seeded random program for a terminal: text of every width,
// combining marks, colours, cursor moves, erases, inserted and deleted
// lines, scroll regions, the alternate screen, resets, resizes. What the
// differential tests of screen reads drive a terminal with (row-reads,
// plain-row): each compares two ways of reading the same terminal.
import type { Terminal } from "@xterm/headless";

/** Texts of every kind: widths, combining marks, Latin-1, no-break spaces, tabs, a long line that wraps, backspaces over text. */
const TEXTS = ["hello", "x", "   spaced   ", "日本語", "e\u0301", "a\u0308", "o\u0303\u0301", "\u0301", "🙂", "a\tb", "wrap".repeat(9), "z\b\by", "café ÿ", "a\u00a0b\u00a0", "\u02ff|"];

/** The next piece of output (null when the step resized the terminal instead). */
export function randomScreenStep(next: () => number, term: Terminal): string | null {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const n = (max: number) => 1 + Math.floor(next() * max);
  switch (Math.floor(next() * 14)) {
    case 0:
    case 1:
    case 2:
      return pick(TEXTS);
    case 3:
      return "\r\n";
    case 4:
      return `\x1b[${pick(["0", "1", "4", "7", "31", "42", "38;5;200", "48;2;1;2;3", "1;33;44"])}m`;
    case 5:
      return `\x1b[${n(term.rows)};${n(term.cols)}H`;
    case 6:
      return `\x1b[${pick(["", "1", "2"])}K`;
    case 7:
      return `\x1b[${pick(["", "1", "2"])}J`;
    case 8:
      return `\x1b[${n(3)}${pick(["L", "M", "@", "P", "X"])}`;
    case 9:
      return `\x1b[${n(Math.max(1, term.rows - 1))};${term.rows}r`;
    case 10:
      return pick(["\x1b[?1049h", "\x1b[?1049l", "\x1bM", "\x1bD", "\x1b[r"]);
    case 11:
      return next() < 0.1 ? "\x1bc" : "\x1b[2m dim \x1b[22m";
    case 12:
      term.resize(20 + Math.floor(next() * 40), 4 + Math.floor(next() * 8));
      return null;
    default:
      return "\x1b]2;title " + n(9) + "\x07";
  }
}
