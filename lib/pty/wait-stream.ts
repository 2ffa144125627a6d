// The stream half of a wait: every line the program wrote after the start
// position (those still kept when the wait begins, then each new one as it is
// made, then the unfinished last line) is searched for the wait's patterns.
import { endOf, type StreamLine } from "./stream-lines.ts";
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
  if (line.ends === null) return Math.max(0, Math.min(line.text.length, position - line.base));
  for (let i = 0; i < line.text.length; i++) if (endOf(line, i) > position) return i;
  return line.text.length;
}

/** The earliest match of any pattern in what `line` holds after `position` (ties: the first pattern). */
export function searchLine(line: StreamLine, position: number, patterns: readonly WaitPattern[]): StreamHit | undefined {
  if (line.end <= position && line.text.length > 0 && endOf(line, line.text.length - 1) <= position) return undefined;
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
  #stop: () => void;
  #hit: StreamHit | undefined;

  constructor(
    private readonly stream: StreamWindow,
    private readonly from: number,
    private readonly patterns: readonly WaitPattern[],
    onHit: (hit: StreamHit) => void,
  ) {
    // Lines after `from` that are no longer kept cannot be searched.
    this.windowExceeded = from < stream.droppedUpTo;
    const look = (line: StreamLine) => {
      if (this.#hit !== undefined) return;
      const hit = searchLine(line, from, patterns);
      if (hit !== undefined) {
        this.#hit = hit;
        this.#stop();
        onHit(hit);
      }
    };
    this.#stop = () => {};
    if (patterns.length === 0) return;
    // Past lines, then new ones as they are finished: no await in between, so none is missed.
    for (const line of stream.linesAfter(from)) {
      look(line);
      if (this.#hit !== undefined) return;
    }
    this.#stop = stream.onLine(look);
  }

  /** Searches the unfinished last line (a prompt has no newline yet). */
  checkCurrent(): StreamHit | undefined {
    if (this.#hit !== undefined || this.patterns.length === 0) return undefined;
    return searchLine(this.stream.current(), this.from, this.patterns);
  }

  stop(): void {
    this.#stop();
  }
}
