// The text a program wrote, as lines with output positions (DESIGN.md 4.8):
// what `pty wait --text/--regex` matches besides the screen, so a line that
// scrolled away between two looks still counts. A small terminal model, not
// an emulator: printable text, carriage return, backspace, tab, erase-in-line
// and horizontal cursor moves shape the current line; a newline, or a vertical
// cursor move (a full-screen program drawing elsewhere), ends it; every other
// control sequence is dropped. Each character carries the position just after
// the last byte that made it, so a wait can start at any byte.

/** One finished line: its text and where each character ended in the output. */
export interface StreamLine {
  readonly text: string;
  /** Position after character i is `ends[i]`; null when the characters were written one byte each from `base`. */
  readonly ends: Uint32Array | null;
  /** Position before the line's first character (used when `ends` is null). */
  readonly base: number;
  /** Position after the bytes that ended the line. */
  readonly end: number;
}

/** Position just after character `index` of `line`. */
export function endOf(line: StreamLine, index: number): number {
  if (line.ends === null) return line.base + index + 1;
  return line.base + (line.ends[index] ?? 0);
}

/** Longest line kept; a longer one is cut into pieces (bounds what a pattern scans). */
export const MAX_LINE_CHARS = 16 * 1024;

const enum State { ground, escape, csi, oscString, stringEscape, skipString }

/** Turns output bytes into lines; `onLine` gets each finished one. */
export class StreamProjector {
  #state = State.ground;
  #csi = "";
  /** UTF-8 sequence being assembled. */
  #utf8 = 0;
  #utf8Need = 0;
  #chars: string[] = [];
  #ends: number[] = [];
  #col = 0;
  #position = 0;

  constructor(private readonly onLine: (line: StreamLine) => void) {}

  /** Bytes received so far: the session's output position. */
  get position(): number {
    return this.#position;
  }

  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      this.#position++;
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
    }
  }

  /** The line being written (not yet ended); empty text when there is none. */
  current(): StreamLine {
    return this.#line(this.#position);
  }

  /** Ends the current line (the program exited): it becomes a finished line. */
  finish(): void {
    if (this.#chars.length > 0) this.#endLine();
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
        while (this.#col < to) {
          if (this.#col >= this.#chars.length) this.#put(" ");
          else this.#col++;
        }
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
    if (/[<=>?]/.test(params[0] ?? "")) return; // private modes: nothing drawn
    const n = Math.max(1, Number.parseInt(params, 10) || 1);
    switch (final) {
      case "K": {
        const mode = Number.parseInt(params, 10) || 0;
        if (mode === 0) this.#truncate(this.#col);
        else if (mode === 2) this.#truncate(0);
        else for (let i = 0; i < Math.min(this.#col + 1, this.#chars.length); i++) this.#chars[i] = " ";
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

  #moveTo(col: number): void {
    const to = Math.min(MAX_LINE_CHARS - 1, Math.max(0, col));
    while (this.#chars.length < to) this.#put(" ", this.#chars.length);
    this.#col = to;
  }

  #truncate(from: number): void {
    this.#chars.length = Math.min(this.#chars.length, from);
    this.#ends.length = this.#chars.length;
  }

  #put(char: string, at = this.#col): void {
    if (at >= MAX_LINE_CHARS) {
      this.#endLine();
      at = 0;
    }
    this.#chars[at] = char;
    this.#ends[at] = this.#position;
    this.#col = at + 1;
  }

  /** A vertical move: what was written so far on this line is a line of its own. */
  #breakLine(): void {
    if (this.#chars.length > 0) this.#endLine();
    this.#col = 0;
  }

  #endLine(): void {
    const line = this.#line(this.#position);
    this.#chars = [];
    this.#ends = [];
    this.#col = 0;
    this.onLine(line);
  }

  #line(end: number): StreamLine {
    const text = this.#chars.join("");
    // One position per UTF-16 unit, so match offsets index them directly.
    const ends: number[] = [];
    this.#chars.forEach((char, i) => {
      for (let unit = 0; unit < char.length; unit++) ends.push(this.#ends[i] ?? end);
    });
    const first = ends[0] ?? end;
    // Positions are stored relative to the line's base, which keeps them small.
    const base = first - 1;
    let contiguous = true;
    for (let i = 0; contiguous && i < ends.length; i++) contiguous = ends[i] === first + i;
    if (contiguous) return { text, ends: null, base, end };
    const relative = new Uint32Array(ends.length);
    for (let i = 0; i < ends.length; i++) relative[i] = (ends[i] as number) - base;
    return { text, ends: relative, base, end };
  }
}
