// The stream half of a wait: the output after the start position (what is
// still kept when the wait begins, then each chunk as it arrives), turned
// into lines (stream-lines.ts) and searched for the wait's patterns, the
// unfinished last line included.
import { endOf, MAX_LINE_CHARS, type StreamLine, StreamProjector } from "./stream-lines.ts";
import type { StreamWindow } from "./stream-window.ts";
import { findFrom, type PatternMatch, type WaitPattern } from "./wait-pattern.ts";

/** A pattern found in the output, and the position just after it. */
export interface StreamHit {
  readonly pattern: WaitPattern;
  readonly match: PatternMatch;
  readonly position: number;
}

/** The first character of `line` written after `position`. */
function cutAfter(line: StreamLine, position: number): number {
  if (line.ends === null && line.runs === null) return Math.max(0, Math.min(line.text.length, position - line.base));
  // Positions only grow along a line written in order: the first unit past `position` by bisection.
  if (line.ends === null) {
    let lo = 0;
    let hi = line.text.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (endOf(line, mid) > position) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
  for (let i = 0; i < line.text.length; i++) if (endOf(line, i) > position) return i;
  return line.text.length;
}

/** The earliest match of any pattern in what `line` holds after `position` (ties: the first pattern). */
export function searchLine(line: StreamLine, position: number, patterns: readonly WaitPattern[]): StreamHit | undefined {
  const cut = cutAfter(line, position);
  if (cut >= line.text.length) return undefined;
  let best: StreamHit | undefined;
  for (const pattern of patterns) {
    const match = findFrom(pattern, line.text, cut);
    if (match !== undefined && (best === undefined || match.start < best.match.start)) {
      best = { pattern, match, position: endOf(line, match.end - 1) };
    }
  }
  return best;
}

/** Watches a session's output from `from` on; `onHit` gets the first match (once). */
export class StreamWatch {
  readonly windowExceeded: boolean;
  #stop: () => void = () => {};
  #hit: StreamHit | undefined;
  #projector: StreamProjector | undefined;

  constructor(
    stream: StreamWindow,
    private readonly from: number,
    private readonly patterns: readonly WaitPattern[],
    onHit: (hit: StreamHit) => void,
  ) {
    // Output after `from` that is no longer kept cannot be searched.
    this.windowExceeded = from < stream.keptFrom;
    if (patterns.length === 0) return;
    const look = (line: StreamLine) => {
      if (this.#hit !== undefined) return;
      const hit = searchLine(line, from, patterns);
      if (hit === undefined) return;
      this.#hit = hit;
      this.#stop();
      onHit(hit);
    };
    // Start at the beginning of the line holding `from` (when kept), so that line reads as it was written.
    const lookBack = Math.max(stream.keptFrom, Math.min(from, stream.position) - MAX_LINE_CHARS);
    const past = stream.read(lookBack);
    const before = past.subarray(0, Math.max(0, from - lookBack));
    const lineStart = before.lastIndexOf(0x0a) + 1;
    const projector = new StreamProjector(look, lookBack + lineStart);
    this.#projector = projector;
    // The past, then each chunk as it comes: no await in between, so nothing is missed.
    projector.feed(past.subarray(lineStart));
    if (this.#hit !== undefined) return;
    if (stream.finished) {
      projector.finish();
      return;
    }
    this.#stop = stream.onBytes((bytes) => {
      if (bytes === null) return projector.finish();
      projector.feed(bytes);
      // The unfinished last line too (a prompt, text a full-screen program
      // typed in place), as each chunk arrives: the wait fires when the text
      // is there, not when the screen's parse of it comes round.
      if (this.#hit === undefined) look(projector.current());
    });
  }

  /** Searches the unfinished last line (a prompt has no newline yet). */
  checkCurrent(): StreamHit | undefined {
    if (this.#hit !== undefined || this.#projector === undefined) return undefined;
    return searchLine(this.#projector.current(), this.from, this.patterns);
  }

  stop(): void {
    this.#stop();
  }
}
