// What `collect` shows of a stream: the retained head and tail, narrowed by
// line limits (--head-lines/--tail-lines; with the byte limits the smaller
// wins) and, where a byte limit cut a line, moved back to a line boundary
// when one lies close enough. Pure: no runtime APIs, cheap to test at edges.
import { countLineFeeds } from "./line-feeds.ts";
import type { RetainedSnapshot } from "./retained-window.ts";

/** Line limits, and how far a byte cut may move back to reach a line end. */
export interface ShowLimits {
  /** The head byte limit (--head-bytes) the store was opened with, when known. */
  readonly headBytes?: number;
  /** The tail byte limit (--max-bytes) the store was opened with. */
  readonly tailBytes: number;
  readonly headLines?: number | undefined;
  readonly tailLines?: number | undefined;
  /** Bytes a byte cut may give up to land on a line boundary (default 4 KiB). */
  readonly snapBytes?: number;
}

/** Which limit decided where the head ends or the tail begins; null when nothing was cut there. */
export type CutBy = "bytes" | "lines" | null;

/** The head and tail to print, with the accounting the report gives. */
export interface ShownOutput {
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
  /** Bytes and lines of the whole stream. */
  readonly bytes: number;
  readonly lines: number;
  /** Bytes not shown (between head and tail). */
  readonly elided: number;
  /** Line ends not shown: whole lines, when both cuts are on line boundaries. */
  readonly elidedLines: number;
  readonly headLines: number;
  readonly tailLines: number;
  readonly headCutBy: CutBy;
  readonly tailCutBy: CutBy;
}

/** The default distance a byte cut may move back to end on a line (README "Lines"). */
export const SNAP_BYTES = 4096;

const LF = 0x0a;

/**
 * Narrows a snapshot to what is shown. With nothing elided and no line limit
 * biting, head + tail is the stream byte for byte. A line is its bytes up to
 * and including its LF (CRLF stays whole); an unterminated last line counts.
 */
export function showOutput(snapshot: RetainedSnapshot, limits: ShowLimits): ShownOutput {
  const snap = limits.snapBytes ?? SNAP_BYTES;
  // Head: the head window, or its first N lines when that is shorter.
  const window = snapshot.head;
  let head = window;
  let headCutBy: CutBy = window.length < snapshot.bytes ? "bytes" : null;
  if (limits.headLines !== undefined) {
    const end = endOfFirstLines(window, limits.headLines);
    if (end < window.length) {
      head = window.subarray(0, end);
      headCutBy = "lines";
    } else if (headCutBy === "bytes" && window.length < (limits.headBytes ?? 0) && endsWholeLines(window, limits.headLines)) {
      // The keeper (the guardian) ended the head at line N itself, before its byte limit.
      headCutBy = "lines";
    }
  }
  if (headCutBy === "bytes" && head.length > 0 && head[head.length - 1] !== LF) {
    const lastLf = head.lastIndexOf(LF);
    if (lastLf !== -1 && head.length - (lastLf + 1) <= snap) head = head.subarray(0, lastLf + 1);
  }
  // Tail candidates: what is retained after the shown head (with nothing
  // elided, the rest of the head window too), within the tail byte limit.
  let rest: Uint8Array;
  let restStart: number;
  let restStartsLine: boolean;
  if (snapshot.elided === 0) {
    rest = concat(window.subarray(head.length), snapshot.tail);
    restStart = head.length;
    restStartsLine = head.length === 0 || head[head.length - 1] === LF;
  } else {
    rest = snapshot.tail;
    restStart = snapshot.bytes - rest.length;
    restStartsLine = snapshot.tailAtLineStart;
  }
  // With nothing elided, bytes the head gave up to end on a line belong to
  // the tail: a stream that fits head plus tail is shown whole.
  const tailRoom = limits.tailBytes + (snapshot.elided === 0 && headCutBy === "bytes" ? window.length - head.length : 0);
  if (rest.length > tailRoom) {
    const cut = rest.length - tailRoom;
    restStartsLine = rest[cut - 1] === LF;
    rest = rest.subarray(cut);
    restStart += cut;
  }
  let tail = rest;
  let tailCutBy: CutBy = restStart > head.length ? "bytes" : null;
  if (limits.tailLines !== undefined) {
    const start = startOfLastLines(rest, limits.tailLines);
    if (start > 0) {
      tail = rest.subarray(start);
      tailCutBy = "lines";
    } else if (tailCutBy === "bytes" && snapshot.elided > 0 && rest.length < limits.tailBytes && (rest.length === 0 || restStartsLine) && linesIn(rest) === limits.tailLines) {
      // The keeper (the guardian) handed over only the last N lines, fewer bytes than its byte limit.
      tailCutBy = "lines";
    }
  }
  if (tailCutBy === "bytes" && !restStartsLine) {
    const firstLf = tail.indexOf(LF);
    if (firstLf !== -1 && firstLf < snap && firstLf + 1 < tail.length) tail = tail.subarray(firstLf + 1);
  }
  const elided = snapshot.bytes - head.length - tail.length;
  return {
    head,
    tail,
    bytes: snapshot.bytes,
    lines: snapshot.lines,
    elided,
    elidedLines: Math.max(0, snapshot.lineFeeds - countLineFeeds(head) - countLineFeeds(tail)),
    headLines: linesIn(head),
    tailLines: linesIn(tail),
    headCutBy: elided === 0 ? null : headCutBy,
    tailCutBy: elided === 0 ? null : tailCutBy,
  };
}

/** True when `bytes` is exactly `n` lines, each with its LF. */
function endsWholeLines(bytes: Uint8Array, n: number): boolean {
  return bytes.length === 0 ? n === 0 : bytes[bytes.length - 1] === LF && countLineFeeds(bytes) === n;
}

/** Lines in `bytes`: its line feeds, plus a last line without one. */
export function linesIn(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  return countLineFeeds(bytes) + (bytes[bytes.length - 1] === LF ? 0 : 1);
}

/** Offset just past the n-th line feed, or the length when there are fewer. */
function endOfFirstLines(bytes: Uint8Array, n: number): number {
  let at = 0;
  for (let i = 0; i < n; i++) {
    const lf = bytes.indexOf(LF, at);
    if (lf === -1) return bytes.length;
    at = lf + 1;
  }
  return at;
}

/** Offset where the last n lines begin (a last line without LF counts), 0 when there are no more. */
export function startOfLastLines(bytes: Uint8Array, n: number): number {
  if (n === 0) return bytes.length;
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === LF) end--;
  for (let i = 0; i < n; i++) {
    const lf = end === 0 ? -1 : bytes.lastIndexOf(LF, end - 1);
    if (lf === -1) return 0;
    if (i === n - 1) return lf + 1;
    end = lf;
  }
  return 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
