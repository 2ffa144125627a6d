// What a screen needs to be rebuilt exactly: every byte it was fed and every
// resize, in order, while that stays small. An idle session's emulator (about
// 160 KB) can then be dropped and rebuilt on demand by replaying the history
// (a few KB for a shell at a prompt), which gives the very same screen: the
// emulator is deterministic. Past the bound, or after a resize whose place
// among the bytes is not known exactly, the history is given up for good.
import type { Terminal } from "@xterm/headless";

/** Bytes between two resizes, in a buffer that grows by doubling. */
interface Run {
  data: Uint8Array;
  length: number;
}
type Entry = Run | { readonly cols: number; readonly rows: number };

/** The replayable past of one screen. */
export class ScreenHistory {
  #entries: Entry[] = [];
  #bytes = 0;
  #valid = true;

  constructor(readonly maxBytes: number, readonly initialCols: number, readonly initialRows: number) {}

  /** The history can rebuild the screen. */
  get valid(): boolean {
    return this.#valid;
  }

  /** Bytes a replay parses. */
  get bytes(): number {
    return this.#bytes;
  }

  addBytes(bytes: Uint8Array): void {
    if (!this.#valid) return;
    this.#bytes += bytes.length;
    if (this.#bytes > this.maxBytes) return this.invalidate();
    let last = this.#entries[this.#entries.length - 1];
    if (last === undefined || !("data" in last)) {
      last = { data: new Uint8Array(Math.max(256, bytes.length)), length: 0 };
      this.#entries.push(last);
    }
    if (last.length + bytes.length > last.data.length) {
      const grown = new Uint8Array(Math.max(last.data.length * 2, last.length + bytes.length));
      grown.set(last.data.subarray(0, last.length));
      last.data = grown;
    }
    last.data.set(bytes, last.length);
    last.length += bytes.length;
  }

  addResize(cols: number, rows: number): void {
    if (this.#valid) this.#entries.push({ cols, rows });
  }

  /** Gives the history up (too big, or no longer exact). */
  invalidate(): void {
    this.#valid = false;
    this.#entries = [];
    this.#bytes = 0;
  }

  /**
   * Feeds the history into a fresh terminal of the initial size through
   * `write` (the emulator's guarded write: the bytes that once made xterm throw
   * would again); `done` once all is parsed.
   */
  replay(term: Terminal, write: (bytes: Uint8Array, done: () => void) => void, done: () => void): void {
    const entries = this.#entries;
    const step = (index: number): void => {
      for (let i = index; i < entries.length; i++) {
        const entry = entries[i] as Entry;
        if ("data" in entry) {
          // A resize must wait for the bytes before it: go on from the write's callback.
          write(entry.data.subarray(0, entry.length), () => step(i + 1));
          return;
        }
        term.resize(Math.max(2, entry.cols), entry.rows);
      }
      done();
    };
    step(0);
  }
}
