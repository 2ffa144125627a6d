// Finding text on a screen for `pty wait --text/--regex`. The haystack is the
// visible rows joined by "\n", except that a row the terminal soft-wrapped
// continues the previous one, so a long line matches the way it was printed.
// Pure functions: no terminal, no I/O.
import { findFrom, type PatternMatch, type WaitPattern } from "./wait-pattern.ts";

/** A match's place on the screen: visible row and character offset in that row. */
export interface Occurrence {
  readonly row: number;
  readonly col: number;
  /** Offset range in the haystack, for containment checks. */
  readonly start: number;
  readonly end: number;
  readonly match: PatternMatch;
}

/** The visible text as one string, with the offset where each row starts. */
export interface Haystack {
  readonly text: string;
  readonly rowStarts: readonly number[];
}

/** Joins rows; `wrapped[i]` says row i continues row i-1 (no newline between). */
export function buildHaystack(rows: readonly string[], wrapped: readonly boolean[]): Haystack {
  let text = "";
  const rowStarts: number[] = [];
  rows.forEach((row, i) => {
    if (i > 0 && wrapped[i] !== true) text += "\n";
    rowStarts.push(text.length);
    text += row;
  });
  return { text, rowStarts };
}

/** Every non-overlapping occurrence of `pattern`, in screen order. */
export function findOccurrences(hay: Haystack, pattern: WaitPattern): Occurrence[] {
  const found: Occurrence[] = [];
  for (let from = 0, m = findFrom(pattern, hay.text, 0); m !== undefined; m = findFrom(pattern, hay.text, from)) {
    const row = rowOf(hay.rowStarts, m.start);
    found.push({ row, col: m.start - (hay.rowStarts[row] ?? 0), start: m.start, end: m.end, match: m });
    from = m.end;
  }
  return found;
}

function rowOf(rowStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = rowStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((rowStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
