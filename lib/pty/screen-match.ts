// Finding text on a screen for `pty wait --text/--regex`. The haystack is the
// visible rows joined by "\n", except that a row the terminal soft-wrapped
// continues the previous one, so a long line matches the way it was printed.
// Pure functions: no terminal, no I/O.

/** A match's place on the screen: visible row and character offset in that row. */
export interface Occurrence {
  readonly row: number;
  readonly col: number;
  /** Offset range in the haystack, for containment checks. */
  readonly start: number;
  readonly end: number;
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

/** What a wait looks for: literal text or a regular expression. */
export type ScreenPattern = { readonly text: string } | { readonly regex: RegExp };

/** Every non-overlapping occurrence of `pattern`, in screen order. */
export function findOccurrences(hay: Haystack, pattern: ScreenPattern): Occurrence[] {
  const found: Array<[number, number]> = [];
  if ("text" in pattern) {
    if (pattern.text === "") return [];
    for (let at = hay.text.indexOf(pattern.text); at >= 0; at = hay.text.indexOf(pattern.text, at + pattern.text.length)) {
      found.push([at, at + pattern.text.length]);
    }
  } else {
    const flags = pattern.regex.flags.includes("g") ? pattern.regex.flags : pattern.regex.flags + "g";
    const global = new RegExp(pattern.regex.source, flags);
    for (const m of hay.text.matchAll(global)) {
      // An empty match ("^", "x*") says nothing appeared; it never satisfies a wait.
      if (m[0].length > 0) found.push([m.index, m.index + m[0].length]);
    }
  }
  return found.map(([start, end]) => {
    const row = rowOf(hay.rowStarts, start);
    return { row, col: start - (hay.rowStarts[row] ?? 0), start, end };
  });
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

/** The printable lines of input text (what an echo of it would show), controls removed. */
export function inputLines(text: string): string[] {
  // deno-lint-ignore no-control-regex -- input is made of control sequences; that is what is removed
  const sequence = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b./g;
  // deno-lint-ignore no-control-regex -- same
  const control = /[\x00-\x1f\x7f]/g;
  return text
    .replace(sequence, "")
    .split(/[\r\n]+/)
    .map((line) => line.replace(control, ""))
    .filter((line) => line.trim() !== "");
}
