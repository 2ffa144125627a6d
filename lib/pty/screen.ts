// The screen of one session: an xterm terminal (screen-emulator.ts) fed with
// every byte the PTY produced. Reads wait on xterm's write callback, never a
// sleep. An idle screen whose history is small drops its emulator and
// rebuilds it by replay when it is needed again (screen-history.ts).
// Longer than 300 lines because feeding, the read barrier, the query scan of a dropped emulator, the read cache
// and trimming for the agent's screen budget all turn on one parse count; the query scan is the piece to split out next.
import type { IMarker, Terminal } from "@xterm/headless";
import { Emulator, type TerminalClass, loadTerminal } from "./screen-emulator.ts";
import { type ScreenGrid, readGrid } from "./screen-grid.ts";
import { ScreenHistory } from "./screen-history.ts";
import { clampScrollback } from "./screen-size.ts";
import { type StyleRun, visibleRuns } from "./screen-styles.ts";
import { lineText } from "./line-text.ts";

/** Unparsed bytes above which the PTY is paused; xterm discards past 50 MB. */
const HIGH_WATER = 1024 * 1024;
/** Unparsed bytes below which a paused PTY is resumed. */
const LOW_WATER = 256 * 1024;
/** History kept for rebuilding; a screen that received more keeps its emulator. */
const HISTORY_MAX = 32 * 1024;
/** Time without output, reads or waits after which the emulator is dropped. */
const IDLE_MS = 1500;
// Sequences a program may wait to have answered: CSI ... c/n/q/t/p/u/x
// (device attributes, status and cursor reports, version, modes), any
// OSC/DCS/APC/PM/SOS string, DECID, and their C1 forms. False alarms only
// cost building the emulator.
// deno-lint-ignore no-control-regex -- control sequences are what this finds
const NEEDS_ANSWER_ALL = /\x1b\[[\x20-\x3f]*[cnqtpux]|\x1b[\]PZ^_X]|[\x90\x98\x9b\x9d\x9e\x9f]/g;
/** The stream's last characters kept for the next chunk's scan: room for a query with many parameters. */
const TAIL_CHARS = 64;

function latin1(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}

/** How a screen is made and whom it tells about replies and back-pressure. */
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
  readonly scrollback: number;
  #ctor: TerminalClass;
  #options: ScreenOptions;
  #emulator: Emulator | undefined;
  #history: ScreenHistory;
  #replaying = false;
  #fed = 0;
  #parsed = 0;
  #waiters: { target: number; resolve: () => void }[] = [];
  #parsedListeners = new Set<() => void>();
  #paused = false;
  #lastActive = Date.now();
  #trimmed = 0;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;
  /** The stream's end not yet matched as a query, as latin1: a query may come in pieces. */
  #tail = "";
  /** Moves when what the grid shows may change (a parse, a resize, a rebuilt emulator); the last read keeps its version. */
  #version = 0;
  #gridRead: { version: number; grid: ScreenGrid } | undefined;
  /** xterm threw on this screen's output since the program last redrew (guarded-write.ts): the screen may differ. */
  #faulted = false;

  private constructor(ctor: TerminalClass, options: ScreenOptions) {
    this.#ctor = ctor;
    this.#options = options;
    this.scrollback = clampScrollback(options.scrollback);
    this.#history = new ScreenHistory(HISTORY_MAX, options.cols, options.rows);
    // No emulator yet: the first output, or the first read, makes one.
  }

  /** A screen of the given size; scrollback clamped to 0..MAX_SCROLLBACK. */
  static async create(options: ScreenOptions): Promise<Screen> {
    return new Screen(await loadTerminal(), options);
  }

  #newEmulator(): Emulator {
    return new Emulator(this.#ctor, this.#history.initialCols, this.#history.initialRows, this.scrollback, {
      onReply: (reply) => {
        if (!this.#replaying) this.#options.onReply(reply); // the program had its answers the first time
      },
      onParsed: (bytes) => this.#parsedUpTo(bytes),
      onFault: () => (this.#faulted = true),
    });
  }

  // The live emulator, rebuilt from the history when it was dropped: the
  // replayed bytes count as unparsed again until the replay is done.
  #live(): Emulator {
    this.#touch();
    if (this.#emulator !== undefined) return this.#emulator;
    const emulator = this.#newEmulator();
    this.#emulator = emulator;
    this.#version++;
    const replayed = this.#history.bytes;
    this.#parsed -= replayed;
    this.#replaying = true;
    emulator.batcher.hold();
    this.#history.replay(emulator.term, (bytes, done) => emulator.writer.write(bytes, done, false), () => {
      this.#replaying = false;
      this.#parsedUpTo(replayed);
      emulator.batcher.release();
    });
    return emulator;
  }

  get #term(): Terminal {
    return this.#live().term;
  }

  /** Queues PTY output for parsing; pauses the PTY when too much is unparsed. */
  feed(bytes: Uint8Array): void {
    if (bytes.length === 0 || this.#disposed) return;
    const scanned = this.#emulator === undefined;
    if (scanned && !this.#watchForQuery(bytes) && this.#canStayAsHistory(bytes)) {
      // Nobody reads or waits and nothing asks for an answer: keep the bytes
      // for a replay; they count as parsed (the replay parses them).
      this.#history.addBytes(bytes);
      this.#fed += bytes.length;
      this.#parsed += bytes.length;
      return;
    }
    const emulator = this.#live(); // replays the history first when rebuilt
    // The emulator answers by itself; only the stream's end is kept, for
    // the scan once the emulator is dropped (a flood is never converted).
    if (!scanned) this.#tail = (this.#tail + latin1(bytes.subarray(Math.max(0, bytes.length - TAIL_CHARS)))).slice(-TAIL_CHARS);
    this.#fed += bytes.length;
    this.#history.addBytes(bytes);
    emulator.batcher.push(bytes);
    // A pending wait looks at the screen once this is parsed: parse it now,
    // not on the loop's next turn (a batch in flight still goes first).
    if (this.#parsedListeners.size > 0) emulator.batcher.flush();
    if (!this.#paused && this.#fed - this.#parsed > HIGH_WATER) {
      this.#paused = true;
      this.#options.onPressure(true);
    }
  }

  #canStayAsHistory(bytes: Uint8Array): boolean {
    if (!this.#history.valid || this.#history.bytes + bytes.length > this.#history.maxBytes) return false;
    return this.#waiters.length === 0 && this.#parsedListeners.size === 0;
  }

  // A query (device attributes, cursor report, OSC/DCS requests) needs the
  // emulator's answer now. A program may write one in pieces, each piece its
  // own chunk (ESC, then "[", then "6n"): the scan runs over the stream's
  // unfinished end, kept from chunk to chunk until a match consumes it.
  #watchForQuery(bytes: Uint8Array): boolean {
    const text = this.#tail + latin1(bytes);
    const match = NEEDS_ANSWER_ALL.exec(text);
    let end = 0;
    for (let m = match; m !== null; m = NEEDS_ANSWER_ALL.exec(text)) end = m.index + m[0].length;
    NEEDS_ANSWER_ALL.lastIndex = 0;
    this.#tail = text.slice(Math.max(end, text.length - TAIL_CHARS));
    return match !== null;
  }

  #parsedUpTo(length: number): void {
    this.#parsed += length;
    this.#version++;
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
    const emulator = this.#live();
    if (this.#parsed >= this.#fed) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.#waiters.push({ target: this.#fed, resolve }));
    emulator.batcher.flush(); // a reader is waiting: do not wait for the next turn
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

  /** The emulator is in memory (false while an idle screen is kept as its history). */
  get hydrated(): boolean {
    return this.#emulator !== undefined;
  }

  /**
   * Terminal cells held in memory now: every line of the normal buffer
   * (scrollback included) and the alternate screen while it shows; none while
   * the emulator is dropped. What the agent's screen budget charges.
   */
  cellsHeld(): number {
    const term = this.#emulator?.term;
    if (term === undefined) return 0;
    return term.cols * (term.buffer.normal.length + (term.buffer.active.type === "alternate" ? term.rows : 0));
  }

  /** When this screen last had output, a read or a wait (ms since the epoch). */
  get lastActive(): number {
    return this.#lastActive;
  }

  /** xterm threw on some output (contained): the screen may differ until the program redraws (session-output.ts). */
  get faulted(): boolean {
    return this.#faulted;
  }

  forgetFault(): void {
    this.#faulted = false;
  }

  /** Scrollback lines dropped so far to give memory back (the agent's budget), oldest first. */
  get scrollbackTrimmed(): number {
    return this.#trimmed;
  }

  /**
   * Gives memory back when the agent's screen budget is short: an idle
   * emulator that its history can rebuild is dropped (nothing is lost);
   * otherwise the oldest scrollback lines go, about `cells` worth, and are
   * counted in scrollbackTrimmed (only when `mayTrim`). Returns the cells freed.
   */
  relieve(cells: number, mayTrim = true): number {
    const emulator = this.#emulator;
    if (emulator === undefined || cells <= 0) return 0;
    const before = this.cellsHeld();
    const busy = !this.isSettled || this.#waiters.length > 0 || this.#parsedListeners.size > 0 || this.#replaying;
    if (this.#history.valid && !busy) {
      clearTimeout(this.#idleTimer);
      this.#idleTimer = undefined;
      this.#emulator = undefined;
      emulator.dispose();
      return before;
    }
    if (!mayTrim) return 0;
    const term = emulator.term;
    const held = term.buffer.normal.length - term.rows;
    if (held <= 0) return 0;
    const drop = Math.min(held, Math.ceil(cells / term.cols));
    // xterm drops the oldest lines when its scrollback shrinks; the limit is put back for what comes next.
    const limit = term.options.scrollback ?? this.scrollback;
    term.options.scrollback = held - drop;
    term.options.scrollback = limit;
    this.#trimmed += drop;
    return before - this.cellsHeld();
  }

  /** Called after each parsed chunk; returns an unsubscribe function. */
  onParsed(listener: () => void): () => void {
    this.#parsedListeners.add(listener);
    return () => this.#parsedListeners.delete(listener);
  }

  /** The grid as it is now (after settled()); the last read when nothing changed since (read-only: a wait's answer, a poll). */
  grid(scrollbackLines = 0): ScreenGrid {
    const emulator = this.#live();
    const scrollback = Math.min(scrollbackLines, this.scrollback);
    if (scrollback === 0 && this.#gridRead?.version === this.#version) return this.#gridRead.grid;
    const grid = readGrid(emulator.term, { cursorVisible: emulator.cursorVisible, title: emulator.title, scrollback, rowReads: emulator.rowReads });
    if (scrollback === 0) this.#gridRead = { version: this.#version, grid };
    return grid;
  }

  /** Colours and attributes of the visible rows (call after settled(), with grid()). */
  styles(): StyleRun[][] {
    return visibleRuns(this.#term);
  }

  /**
   * Visible rows for matching: cells never written are trimmed, spaces the
   * program wrote are kept (a bash prompt "$ " still ends in its space).
   */
  matchRows(): string[] {
    const term = this.#term;
    const buffer = term.buffer.active;
    const rows: string[] = [];
    const cell = buffer.getNullCell();
    for (let y = 0; y < term.rows; y++) rows.push(lineText(buffer.getLine(buffer.baseY + y), cell));
    return rows;
  }

  /** For each visible row, whether it continues the row above (soft wrap). */
  wrappedRows(): boolean[] {
    const term = this.#term;
    const buffer = term.buffer.active;
    const wrapped: boolean[] = [];
    for (let y = 0; y < term.rows; y++) wrapped.push(buffer.getLine(buffer.baseY + y)?.isWrapped ?? false);
    return wrapped;
  }

  /** Application-cursor mode (DECCKM) as the program set it. */
  get applicationCursor(): boolean {
    return this.#term.modes.applicationCursorKeysMode;
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
    const term = this.#term;
    return term.registerMarker(row - term.buffer.active.cursorY);
  }

  resize(cols: number, rows: number): void {
    // Replay must resize between the same bytes as now: only known when settled.
    if (!this.isSettled) this.#history.invalidate();
    this.#history.addResize(cols, rows);
    this.#emulator?.term.resize(Math.max(2, cols), rows);
    this.#version++;
    this.#touch();
  }

  // Activity postpones dropping the emulator.
  #touch(): void {
    this.#lastActive = Date.now();
    if (this.#idleTimer === undefined && this.#history.valid && !this.#disposed) this.#armIdle(IDLE_MS);
  }

  #armIdle(ms: number): void {
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      const idleFor = Date.now() - this.#lastActive;
      if (idleFor < IDLE_MS) return this.#armIdle(IDLE_MS - idleFor);
      const emulator = this.#emulator;
      const busy = !this.isSettled || this.#waiters.length > 0 || this.#parsedListeners.size > 0 || this.#replaying;
      if (emulator === undefined || !this.#history.valid) return;
      if (busy) return this.#armIdle(IDLE_MS);
      this.#emulator = undefined;
      this.#gridRead = undefined;
      emulator.dispose();
    }, ms);
    // An idle timer must not keep a process alive.
    (this.#idleTimer as { unref?: () => void }).unref?.();
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#idleTimer);
    this.#emulator?.dispose();
    this.#emulator = undefined;
    this.#gridRead = undefined;
    for (const w of this.#waiters) w.resolve();
    this.#waiters = [];
    this.#parsedListeners.clear();
  }
}
