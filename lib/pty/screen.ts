// The screen of one session: an @xterm/headless terminal fed with every byte
// the PTY produced. Loaded lazily (dynamic import) so `run`/`collect` never
// pay for the emulator. Reads wait on xterm's write callback, never a sleep.
import type { IMarker, Terminal } from "@xterm/headless";
import { ParseBatcher } from "./parse-batcher.ts";
import { clampScrollback } from "./screen-size.ts";
import { type ScreenGrid, readGrid } from "./screen-grid.ts";

type TerminalClass = typeof Terminal;
let terminalClass: Promise<TerminalClass> | undefined;

function loadTerminal(): Promise<TerminalClass> {
  terminalClass ??= import("@xterm/headless").then((m) => {
    const mod = m as { Terminal?: TerminalClass; default?: { Terminal: TerminalClass } };
    return (mod.Terminal ?? mod.default?.Terminal) as TerminalClass;
  });
  return terminalClass;
}

/** Unparsed bytes above which the PTY is paused; xterm discards past 50 MB. */
const HIGH_WATER = 1024 * 1024;
/** Unparsed bytes below which a paused PTY is resumed. */
const LOW_WATER = 256 * 1024;

export interface ScreenOptions {
  readonly cols: number;
  readonly rows: number;
  readonly scrollback?: number;
  /** Bytes the terminal answers with (cursor position, device attributes): they go to the PTY. */
  readonly onReply: (bytes: string) => void;
  /** Tells the owner to stop (true) or resume (false) reading the PTY. */
  readonly onPressure: (paused: boolean) => void;
}

/** One session's emulated terminal. */
export class Screen {
  #term: Terminal;
  #options: ScreenOptions;
  #fed = 0;
  #parsed = 0;
  #waiters: { target: number; resolve: () => void }[] = [];
  #parsedListeners = new Set<() => void>();
  #paused = false;
  #batcher: ParseBatcher;
  #cursorVisible = true;
  #title = "";
  readonly scrollback: number;

  private constructor(term: Terminal, options: ScreenOptions, scrollback: number) {
    this.#term = term;
    this.#options = options;
    this.scrollback = scrollback;
    this.#batcher = new ParseBatcher(term, scrollback, (bytes) => this.#parsedUpTo(bytes));
    term.onData((data) => options.onReply(data));
    term.onBinary((data) => options.onReply(data));
    term.onTitleChange((title) => {
      this.#title = title;
    });
    // xterm has no public "cursor hidden" flag: follow DECTCEM (CSI ? 25 h/l)
    // and full resets ourselves, then let xterm's own handler run (return false).
    const track = (visible: boolean) => (params: (number | number[])[]) => {
      if (params.includes(25)) this.#cursorVisible = visible;
      return false;
    };
    term.parser.registerCsiHandler({ prefix: "?", final: "h" }, track(true));
    term.parser.registerCsiHandler({ prefix: "?", final: "l" }, track(false));
    term.parser.registerEscHandler({ final: "c" }, () => {
      this.#cursorVisible = true;
      return false;
    });
    term.parser.registerCsiHandler({ intermediates: "!", final: "p" }, () => {
      this.#cursorVisible = true;
      return false;
    });
  }

  /** A screen of the given size; scrollback clamped to 0..MAX_SCROLLBACK. */
  static async create(options: ScreenOptions): Promise<Screen> {
    const TerminalCtor = await loadTerminal();
    const scrollback = clampScrollback(options.scrollback);
    const term = new TerminalCtor({
      cols: options.cols,
      rows: options.rows,
      scrollback,
      allowProposedApi: true,
      convertEol: false,
      logLevel: "off",
    });
    return new Screen(term, options, scrollback);
  }

  /** Queues PTY output for parsing; pauses the PTY when too much is unparsed. */
  feed(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#fed += bytes.length;
    this.#batcher.push(bytes);
    if (!this.#paused && this.#fed - this.#parsed > HIGH_WATER) {
      this.#paused = true;
      this.#options.onPressure(true);
    }
  }

  #parsedUpTo(length: number): void {
    this.#parsed += length;
    if (this.#paused && this.#fed - this.#parsed < LOW_WATER) {
      this.#paused = false;
      this.#options.onPressure(false);
    }
    if (this.#waiters.length > 0) {
      const ready = this.#waiters.filter((w) => w.target <= this.#parsed);
      this.#waiters = this.#waiters.filter((w) => w.target > this.#parsed);
      for (const w of ready) w.resolve();
    }
    for (const listener of this.#parsedListeners) listener();
  }

  /** Resolves once every byte fed so far has been parsed (the read barrier). */
  settled(): Promise<void> {
    if (this.#parsed >= this.#fed) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.#waiters.push({ target: this.#fed, resolve }));
    this.#batcher.flush(); // a reader is waiting: do not wait for the next turn
    return done;
  }

  /** True when every byte fed so far is parsed. */
  get isSettled(): boolean {
    return this.#parsed >= this.#fed;
  }

  /** Total bytes received from the PTY. */
  get bytesFed(): number {
    return this.#fed;
  }

  /** Called after each parsed chunk; returns an unsubscribe function. */
  onParsed(listener: () => void): () => void {
    this.#parsedListeners.add(listener);
    return () => this.#parsedListeners.delete(listener);
  }

  /** The grid as it is now (call after settled() for a consistent read). */
  grid(scrollbackLines = 0): ScreenGrid {
    return readGrid(this.#term, {
      cursorVisible: this.#cursorVisible,
      title: this.#title,
      scrollback: Math.min(scrollbackLines, this.scrollback),
    });
  }

  /**
   * Visible rows for matching: cells never written are trimmed, spaces the
   * program wrote are kept (a bash prompt "$ " still ends in its space).
   */
  matchRows(): string[] {
    const buffer = this.#term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < this.#term.rows; y++) rows.push(buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? "");
    return rows;
  }

  /** For each visible row, whether it continues the row above (soft wrap). */
  wrappedRows(): boolean[] {
    const buffer = this.#term.buffer.active;
    const wrapped: boolean[] = [];
    for (let y = 0; y < this.#term.rows; y++) wrapped.push(buffer.getLine(buffer.baseY + y)?.isWrapped ?? false);
    return wrapped;
  }

  /** Application-cursor mode (DECCKM) as the program set it. */
  get applicationCursor(): boolean {
    return this.#term.modes.applicationCursorKeysMode;
  }

  get cols(): number {
    return this.#term.cols;
  }

  get rows(): number {
    return this.#term.rows;
  }

  /** Which buffer is showing; markers belong to one buffer. */
  get bufferType(): "normal" | "alternate" {
    return this.#term.buffer.active.type;
  }

  /** Absolute line index of visible row 0 in the active buffer. */
  get baseY(): number {
    return this.#term.buffer.active.baseY;
  }

  /** A marker that follows visible row `row` as it scrolls (disposed when it leaves the buffer). */
  markRow(row: number): IMarker | undefined {
    const buffer = this.#term.buffer.active;
    return this.#term.registerMarker(row - buffer.cursorY);
  }

  resize(cols: number, rows: number): void {
    this.#term.resize(Math.max(2, cols), rows);
  }

  dispose(): void {
    this.#batcher.dispose();
    for (const w of this.#waiters) w.resolve();
    this.#waiters = [];
    this.#parsedListeners.clear();
    this.#term.dispose();
  }
}
