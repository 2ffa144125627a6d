// The text a program wrote, as lines with output positions (DESIGN.md 4.8):
// what `pty wait --text/--regex` matches besides the screen, so a line that
// scrolled away between two looks still counts. A small terminal model, not
// an emulator: printable text, carriage return, backspace, tab, erase-in-line
// and horizontal cursor moves shape the current line; a newline, or a vertical
// cursor move (a full-screen program drawing elsewhere), ends it; every other
// control sequence is dropped. Each character carries the position just after
// the last byte that made it, so a wait can start at any byte.
// Longer than 300 lines because it is one byte-level state machine: its
// escape, CSI and string states all shape the same line and its positions.

/** One finished line: its text and where each character ended in the output. */
export interface StreamLine {
  readonly text: string;
  /** Position after unit i is `base + ends[i]` (a line rewritten in place), else see `runs`. */
  readonly ends: Uint32Array | null;
  /**
   * Runs written in order, as triples (first unit, position, step): unit i of
   * a run ends at position + (i - first + 1) when step is 1 (each
   * unit one byte after the previous), else at the position (step 0,
   * one multi-byte character). Null with `ends` null: one byte per unit from `base`.
   */
  readonly runs: Float64Array | null;
  /** Position before the line's first character. */
  readonly base: number;
  /** Position after the bytes that ended the line. */
  readonly end: number;
}

/** Position just after character `index` of `line`. */
export function endOf(line: StreamLine, index: number): number {
  if (line.ends !== null) return line.base + (line.ends[index] ?? 0);
  const runs = line.runs;
  if (runs === null) return line.base + index + 1;
  let lo = 0;
  let hi = runs.length / 3 - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((runs[mid * 3] as number) <= index) lo = mid;
    else hi = mid - 1;
  }
  const first = runs[lo * 3] as number;
  const start = runs[lo * 3 + 1] as number;
  return runs[lo * 3 + 2] === 1 ? start + index - first + 1 : start;
}

/** Longest line kept; a longer one is cut into pieces (bounds what a pattern scans). */
export const MAX_LINE_CHARS = 16 * 1024;

const enum State { ground, escape, csi, oscString, stringEscape, skipString }

/** Printable ASCII decoded per run, not per byte: the common case is plain text. */
function latin1Run(bytes: Uint8Array, from: number, to: number): string {
  let out = "";
  if (to - from <= 32) {
    // Short runs (most lines of a flood): no subarray to allocate.
    for (let at = from; at < to; at++) out += String.fromCharCode(bytes[at] as number);
    return out;
  }
  for (let at = from; at < to; at += 8192) {
    out += String.fromCharCode.apply(null, bytes.subarray(at, Math.min(to, at + 8192)) as unknown as number[]);
  }
  return out;
}

/** Turns output bytes into lines; `onLine` gets each finished one. */
export class StreamProjector {
  #state = State.ground;
  #csi = "";
  /** UTF-8 sequence being assembled. */
  #utf8 = 0;
  #utf8Need = 0;
  /** The current line's text. */
  #text = "";
  /** Runs written in order (see StreamLine.runs); null while unit i ends at `#base + i + 1`. */
  #runs: number[] | null = null;
  /** Position after each unit, once the line was rewritten in place (then `#runs` is null). */
  #ends: number[] | null = null;
  #base = 0;
  #col = 0;
  #position: number;

  /** `position`: where in the output the first byte fed to it lies. */
  constructor(private readonly onLine: (line: StreamLine) => void, position = 0) {
    this.#position = position;
  }

  /** Bytes received so far: the session's output position. */
  get position(): number {
    return this.#position;
  }

  feed(bytes: Uint8Array): void {
    const origin = this.#position;
    let i = 0;
    while (i < bytes.length) {
      const byte = bytes[i] as number;
      if (this.#state === State.ground && this.#utf8Need === 0 && byte >= 0x20 && byte < 0x7f) {
        let j = i + 1;
        while (j < bytes.length && (bytes[j] as number) >= 0x20 && (bytes[j] as number) < 0x7f) j++;
        this.#position = origin + i;
        this.#putRun(latin1Run(bytes, i, j), origin + i);
        i = j;
        continue;
      }
      this.#position = origin + i + 1;
      switch (this.#state) {
        case State.ground:
          this.#ground(byte);
          break;
        case State.escape:
          this.#escape(byte);
          break;
        case State.csi:
          if (byte >= 0x40 && byte <= 0x7e) {
            this.#state = State.ground;
            this.#csiFinal(String.fromCharCode(byte));
          } else if (byte === 0x1b) this.#state = State.escape;
          else if (this.#csi.length < 64) this.#csi += String.fromCharCode(byte);
          break;
        case State.oscString:
        case State.skipString:
          // OSC ends with BEL or ST (ESC \); DCS/APC/PM/SOS with ST.
          if (byte === 0x07 && this.#state === State.oscString) this.#state = State.ground;
          else if (byte === 0x1b) this.#state = State.stringEscape;
          break;
        case State.stringEscape:
          this.#state = byte === 0x5c ? State.ground : State.skipString;
          break;
      }
      i++;
    }
    this.#position = origin + bytes.length;
  }

  /** The line being written (not yet ended); empty text when there is none. */
  current(): StreamLine {
    return this.#line(this.#position);
  }

  /** Ends the current line (the program exited): it becomes a finished line. */
  finish(): void {
    if (this.#text.length > 0) this.#endLine();
  }

  #ground(byte: number): void {
    if (this.#utf8Need > 0) {
      if ((byte & 0xc0) === 0x80) {
        this.#utf8 = (this.#utf8 << 6) | (byte & 0x3f);
        if (--this.#utf8Need === 0) this.#put(String.fromCodePoint(this.#utf8));
        return;
      }
      this.#utf8Need = 0;
      this.#put("\ufffd");
    }
    if (byte >= 0x20 && byte < 0x7f) return this.#put(String.fromCharCode(byte));
    if (byte >= 0xc2 && byte <= 0xf4) {
      this.#utf8Need = byte >= 0xf0 ? 3 : byte >= 0xe0 ? 2 : 1;
      this.#utf8 = byte & (byte >= 0xf0 ? 0x07 : byte >= 0xe0 ? 0x0f : 0x1f);
      return;
    }
    if (byte >= 0x80) return this.#put("\ufffd");
    switch (byte) {
      case 0x0a: // LF (and VT, FF: the terminal treats them alike)
      case 0x0b:
      case 0x0c:
        return this.#endLine();
      case 0x0d:
        this.#col = 0;
        return;
      case 0x08:
        this.#col = Math.max(0, this.#col - 1);
        return;
      case 0x09: {
        const to = Math.min(MAX_LINE_CHARS, (Math.floor(this.#col / 8) + 1) * 8);
        if (to > this.#text.length) this.#moveTo(to);
        else this.#col = to;
        return;
      }
      case 0x1b:
        this.#state = State.escape;
        return;
    }
  }

  #escape(byte: number): void {
    this.#state = State.ground;
    if (byte === 0x5b) {
      this.#state = State.csi;
      this.#csi = "";
    } else if (byte === 0x5d) this.#state = State.oscString;
    else if (byte === 0x50 || byte === 0x58 || byte === 0x5e || byte === 0x5f) this.#state = State.skipString;
    else if (byte >= 0x20 && byte <= 0x2f) this.#state = State.escape; // intermediates: the final byte follows
    else if (byte === 0x44 || byte === 0x45 || byte === 0x4d || byte === 0x63) this.#breakLine(); // IND, NEL, RI, RIS
  }

  #csiFinal(final: string): void {
    const params = this.#csi;
    const first = params.charCodeAt(0);
    if (first >= 0x3c && first <= 0x3f) return; // private modes (<=>?): nothing drawn
    const n = Math.max(1, Number.parseInt(params, 10) || 1);
    switch (final) {
      case "K": {
        const mode = Number.parseInt(params, 10) || 0;
        if (mode === 0) this.#truncate(this.#col);
        else if (mode === 2) this.#truncate(0);
        else this.#overwrite(0, " ".repeat(Math.min(this.#col + 1, this.#text.length)), this.#position, true);
        return;
      }
      case "G":
      case "`":
        return this.#moveTo(n - 1);
      case "C":
        return this.#moveTo(this.#col + n);
      case "D":
        this.#col = Math.max(0, this.#col - n);
        return;
      case "H":
      case "f":
      case "A":
      case "B":
      case "E":
      case "F":
      case "d":
      case "J":
      case "S":
      case "T":
        return this.#breakLine();
    }
  }

  /** Moves the cursor within the line; past its end, spaces fill the gap (as a terminal shows it). */
  #moveTo(col: number): void {
    const to = Math.min(MAX_LINE_CHARS - 1, Math.max(0, col));
    if (to > this.#text.length) {
      this.#col = this.#text.length;
      this.#overwrite(this.#col, " ".repeat(to - this.#text.length), this.#position, true);
    }
    this.#col = to;
  }

  #truncate(from: number): void {
    if (from >= this.#text.length) return;
    this.#units();
    this.#text = this.#text.slice(0, from);
    if (this.#ends !== null) this.#ends.length = from;
  }

  /** One character (possibly two UTF-16 units) whose last byte was just read. */
  #put(char: string): void {
    this.#overwrite(this.#col, char, this.#position, true);
  }

  /** A run of printable ASCII, byte i of it at position `start + i`. */
  #putRun(run: string, start: number): void {
    if (this.#col + run.length <= MAX_LINE_CHARS) {
      this.#overwrite(this.#col, run, start);
      this.#position = start + run.length;
      return;
    }
    let at = 0;
    while (at < run.length) {
      if (this.#col >= MAX_LINE_CHARS) this.#endLine();
      const piece = run.slice(at, at + (MAX_LINE_CHARS - this.#col));
      this.#overwrite(this.#col, piece, start + at);
      at += piece.length;
    }
    this.#position = start + run.length;
  }

  /**
   * Writes `text` at `col`. Unit i of it ends at `start + i + 1`, or, with
   * `single` (one character, or padding), every unit ends at `start`.
   */
  #overwrite(col: number, text: string, start: number, single = false): void {
    if (col >= MAX_LINE_CHARS) {
      this.#endLine();
      col = 0;
    }
    if (this.#text.length === 0) {
      this.#base = single ? start - 1 : start;
      this.#runs = null;
      this.#ends = null;
    }
    if (col === this.#text.length && this.#ends === null) {
      // Appending, the common case: one run, whatever its length.
      const contiguous = this.#runs === null && (single ? text.length === 1 && start === this.#base + col + 1 : start === this.#base + col);
      if (!contiguous) {
        this.#runs ??= this.#text.length > 0 ? [0, this.#base, 1] : [];
        this.#runs.push(col, start, single ? 0 : 1);
      }
      this.#text += text;
    } else {
      const ends = this.#units();
      for (let i = 0; i < text.length; i++) ends[col + i] = single ? start : start + i + 1;
      this.#text = this.#text.slice(0, col) + text + this.#text.slice(col + text.length);
    }
    this.#col = col + text.length;
  }

  /** The line is being rewritten in place: one position per unit from now on. */
  #units(): number[] {
    if (this.#ends !== null) return this.#ends;
    const line = this.#line(this.#position);
    const ends: number[] = [];
    for (let i = 0; i < this.#text.length; i++) ends.push(endOf(line, i));
    this.#ends = ends;
    this.#runs = null;
    return ends;
  }

  /** A vertical move: what was written so far on this line is a line of its own. */
  #breakLine(): void {
    if (this.#text.length > 0) this.#endLine();
    this.#col = 0;
  }

  #endLine(): void {
    const line = this.#line(this.#position);
    this.#text = "";
    this.#ends = null;
    this.#runs = null;
    this.#col = 0;
    this.onLine(line);
  }

  #line(end: number): StreamLine {
    const text = this.#text;
    if (this.#ends === null) return { text, ends: null, runs: this.#runs === null ? null : Float64Array.from(this.#runs), base: this.#base, end };
    // Positions are stored relative to the line's base, which keeps them small.
    let base = this.#base;
    for (let i = 0; i < text.length; i++) base = Math.min(base, (this.#ends[i] ?? end) - 1);
    const relative = new Uint32Array(text.length);
    for (let i = 0; i < text.length; i++) relative[i] = (this.#ends[i] ?? end) - base;
    return { text, ends: relative, runs: null, base, end };
  }
}
