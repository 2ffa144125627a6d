// Output sized for a model's context: a program's bytes become text a model
// can read without flooding its window. ANSI sequences are removed,
// carriage-return redraws (progress bars) collapse to the last state a
// terminal would show, a line longer than the limit is clipped in the
// middle with a marker saying how much, and a stream longer than the budget
// is shown as head plus tail with the cut stated in bytes and lines of the
// raw stream. Nothing is dropped without the result saying so.

/** How much of a stream was left out, counted on the raw bytes. */
export interface Elision {
  readonly bytes: number;
  readonly lines: number;
  /** Where every byte is kept (the spill file), or null when nowhere. */
  readonly keptIn: string | null;
}

/** Text for a model, and what was done to it. */
export interface ModelText {
  readonly text: string;
  readonly elided: Elision | null;
  /** Lines clipped in the middle for being longer than the line limit. */
  readonly clippedLines: number;
}

// CSI (with private and intermediate bytes), OSC (to BEL or ST), DCS/SOS/PM/APC strings, two-byte escapes.
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]|\x9b[0-?]*[ -/]*[@-~]/g;
// Other C0 controls a terminal would not print (tab, line feed and carriage return stay for now).
// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x07\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;

/** ANSI removed, CR redraws collapsed, backspaces applied, long lines clipped. */
export function cleanText(raw: string, maxLineChars: number): { text: string; clippedLines: number } {
  // Erase-in-line is kept as a mark (a redraw "\r\x1b[K" clears what it overwrites); every other sequence goes.
  const stripped = raw
    .replace(ERASE_TO_END_CSI, ERASE_TO_END)
    .replace(ERASE_LINE_CSI, ERASE_LINE)
    .replace(ANSI, "")
    .replace(CONTROLS, (c) => (c === "\b" || c === ERASE_TO_END || c === ERASE_LINE ? c : ""));
  let clippedLines = 0;
  const lines = stripped.split("\n").map((line) => {
    const shown = lastState(line.endsWith("\r") ? line.slice(0, -1) : line);
    if (shown.length <= maxLineChars) return shown;
    clippedLines += 1;
    return clipMiddle(shown, maxLineChars);
  });
  return { text: lines.join("\n"), clippedLines };
}

const ERASE_TO_END = "\u0001";
const ERASE_LINE = "\u0002";
// deno-lint-ignore no-control-regex
const ERASE_TO_END_CSI = /\x1b\[0?K/g;
// deno-lint-ignore no-control-regex
const ERASE_LINE_CSI = /\x1b\[2K/g;
// deno-lint-ignore no-control-regex
const REDRAWN = /[\r\b\u0001\u0002]/;

/** What a terminal shows after a line's carriage returns, backspaces and erases: each redraw overwrites from column 0. */
function lastState(line: string): string {
  if (!REDRAWN.test(line)) return line;
  let cells: string[] = [];
  for (const segment of line.split("\r")) {
    let col = 0;
    for (const ch of segment) {
      if (ch === "\b") {
        col = Math.max(0, col - 1);
        continue;
      }
      if (ch === ERASE_TO_END || ch === ERASE_LINE) {
        cells = ch === ERASE_LINE ? cells.slice(0, col).map(() => " ") : cells.slice(0, col);
        continue;
      }
      cells[col] = ch;
      col += 1;
    }
    cells = cells.map((c) => c ?? " ");
  }
  return cells.join("");
}

/** A line cut in the middle, with a marker naming how many characters went. */
export function clipMiddle(line: string, max: number): string {
  const keep = Math.max(2, max - 40);
  const left = line.slice(0, Math.ceil(keep / 2));
  const right = line.slice(line.length - Math.floor(keep / 2));
  return `${left}[... ${line.length - left.length - right.length} characters clipped ...]${right}`;
}

/** A stream's retained head and tail as the store holds them (lib/output RetainedSnapshot). */
export interface RetainedStream {
  readonly bytes: number;
  readonly lineFeeds: number;
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
}

const decoder = new TextDecoder();
const LF = 0x0a;
const countFeeds = (bytes: Uint8Array) => {
  let n = 0;
  for (const b of bytes) if (b === LF) n += 1;
  return n;
};

/**
 * The stream as a model sees it. When head and tail do not meet, the head is
 * cut after its last whole line and the tail starts at its first, so the
 * elided part is whole lines and its counts are exact: bytes = total minus
 * what is shown, lines = line feeds in the stream minus those shown.
 */
export function streamForModel(stream: RetainedStream, maxLineChars: number, keptIn: string | null): ModelText {
  const { head, tail, bytes } = stream;
  if (head.length + tail.length >= bytes) {
    // Head and tail overlap or meet: the whole stream is here.
    const whole = new Uint8Array(bytes);
    whole.set(head.subarray(0, Math.min(head.length, bytes)));
    const fromTail = bytes - Math.min(head.length, bytes);
    if (fromTail > 0) whole.set(tail.subarray(tail.length - fromTail), bytes - fromTail);
    const { text, clippedLines } = cleanText(decoder.decode(whole), maxLineChars);
    return { text, elided: null, clippedLines };
  }
  const headEnd = head.lastIndexOf(LF) + 1;
  const firstFeed = tail.indexOf(LF);
  // The tail starts mid-line unless the byte before it was a line feed; without one in it, it is all shown.
  const tailStart = firstFeed === -1 ? 0 : firstFeed + 1;
  const shownHead = head.subarray(0, headEnd);
  const shownTail = tail.subarray(tailStart);
  const elidedBytes = bytes - shownHead.length - shownTail.length;
  const elidedLines = stream.lineFeeds - countFeeds(shownHead) - countFeeds(shownTail);
  const h = cleanText(decoder.decode(shownHead), maxLineChars);
  const t = cleanText(decoder.decode(shownTail), maxLineChars);
  const where = keptIn === null ? "not kept" : `all of it is in ${keptIn}`;
  const marker = `[... ${elidedBytes} bytes, ${elidedLines} lines elided; ${where} ...]\n`;
  return {
    text: `${h.text}${marker}${t.text}`,
    elided: { bytes: elidedBytes, lines: elidedLines, keptIn },
    clippedLines: h.clippedLines + t.clippedLines,
  };
}

/** Visible text trimmed to a budget of characters: the last lines win (a screen's bottom is where a prompt is). */
export function lastLinesWithin(lines: readonly string[], budget: number, maxLineChars: number): { lines: string[]; dropped: number; clippedLines: number } {
  const out: string[] = [];
  let used = 0;
  let clippedLines = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    let line = lines[i] as string;
    if (line.length > maxLineChars) {
      line = clipMiddle(line, maxLineChars);
      clippedLines += 1;
    }
    if (used + line.length + 1 > budget && out.length > 0) return { lines: out.reverse(), dropped: i + 1, clippedLines };
    used += line.length + 1;
    out.push(line);
  }
  return { lines: out.reverse(), dropped: 0, clippedLines };
}
