// Finds the OSC 133 marks corral's shell hooks print (shell-scripts.ts) in a
// session's output and takes them out of it: the screen, the recording, an
// attached terminal and the command's captured output never see them. Only
// a mark carrying this session's nonce counts; any other OSC 133 (a program
// printing its own, `cat` of a file holding one, a nested shell's) is output
// like any other, so nothing but the hooked shell can end a command. A mark
// cut across two reads is held back until its end arrives.

/** A (prompt start), B (prompt end), C (output start), D (finished), P (continuation prompt). */
export type MarkKind = "A" | "B" | "C" | "D" | "P";

/** One mark of the hooked shell, with where it lay in the output. */
export interface ShellMark {
  readonly kind: MarkKind;
  /** D: the command's exit status as the shell gives it ($?). */
  readonly status?: number;
  /** A: the shell's working directory. */
  readonly cwd?: string;
  /** Output position of the mark's first byte. */
  readonly at: number;
  /** Output position just after the mark. */
  readonly end: number;
}

/** Receives a chunk's pieces in order: output without marks, and marks. */
export interface MarkSink {
  bytes(bytes: Uint8Array): void;
  mark(mark: ShellMark): void;
}

const ESC = 0x1b;
const BEL = 0x07;
const PREFIX = [0x1b, 0x5d, 0x31, 0x33, 0x33, 0x3b]; // ESC ] 1 3 3 ;
/** Longest mark looked for: a working directory can be PATH_MAX long. */
const MAX_MARK = 8192;
const decoder = new TextDecoder();

/** One session's mark filter. */
export class ShellMarkFilter {
  readonly #field: string;
  /** Bytes that may begin a mark, held until the next chunk tells. */
  #held: Uint8Array = new Uint8Array(0);

  constructor(nonce: string) {
    this.#field = `corral=${nonce}`;
  }

  /** Splits `chunk`, whose first byte is at output position `position`, into output and marks. */
  scan(chunk: Uint8Array, position: number, sink: MarkSink): void {
    let data = chunk;
    let base = position;
    if (this.#held.length > 0) {
      data = new Uint8Array(this.#held.length + chunk.length);
      data.set(this.#held, 0);
      data.set(chunk, this.#held.length);
      base = position - this.#held.length;
      this.#held = new Uint8Array(0);
    }
    let emitted = 0;
    let from = 0;
    for (;;) {
      const at = data.indexOf(ESC, from);
      if (at === -1) break;
      const found = this.#markAt(data, at);
      if (found === "partial") {
        if (at > emitted) sink.bytes(data.subarray(emitted, at));
        this.#held = data.slice(at);
        return;
      }
      if (found === null) {
        from = at + 1;
        continue;
      }
      if (at > emitted) sink.bytes(data.subarray(emitted, at));
      sink.mark({ ...found.mark, at: base + at, end: base + found.end });
      emitted = found.end;
      from = found.end;
    }
    if (emitted < data.length) sink.bytes(emitted === 0 ? data : data.subarray(emitted));
  }

  /** The program exited: bytes held back were not a mark after all. */
  flush(sink: MarkSink): void {
    if (this.#held.length > 0) sink.bytes(this.#held);
    this.#held = new Uint8Array(0);
  }

  // A mark of ours at `at`, "partial" when the data ends before it can be told, else null.
  #markAt(data: Uint8Array, at: number): { mark: Omit<ShellMark, "at" | "end">; end: number } | "partial" | null {
    for (let i = 0; i < PREFIX.length; i++) {
      if (at + i >= data.length) return "partial";
      if (data[at + i] !== PREFIX[i]) return null;
    }
    const bodyStart = at + PREFIX.length;
    const limit = Math.min(data.length, at + MAX_MARK);
    for (let i = bodyStart; i < limit; i++) {
      const byte = data[i];
      if (byte === BEL) return this.#parse(data.subarray(bodyStart, i), i + 1);
      if (byte === ESC) {
        if (i + 1 >= data.length) return "partial";
        return data[i + 1] === 0x5c ? this.#parse(data.subarray(bodyStart, i), i + 2) : null;
      }
    }
    return limit === data.length && data.length - at < MAX_MARK ? "partial" : null;
  }

  #parse(body: Uint8Array, end: number): { mark: Omit<ShellMark, "at" | "end">; end: number } | null {
    const text = decoder.decode(body);
    const cwdAt = text.indexOf(";cwd=");
    const fields = (cwdAt === -1 ? text : text.slice(0, cwdAt)).split(";");
    if (!fields.includes(this.#field)) return null;
    const kind = fields[0];
    if (kind !== "A" && kind !== "B" && kind !== "C" && kind !== "D" && kind !== "P") return null;
    if (kind === "D") {
      const status = Number(fields[1]);
      return { mark: Number.isInteger(status) ? { kind, status } : { kind }, end };
    }
    if (kind === "A" && cwdAt !== -1) return { mark: { kind, cwd: text.slice(cwdAt + 5) }, end };
    return { mark: { kind }, end };
  }
}

/** A fresh random nonce: 16 bytes as hex. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
