// The one terminal hold, for every command that hands this terminal to a
// program: `pty attach`, `run --tty` and `fg` (cli/shared/jobs/terminal.ts).
// Raw mode, restored to what it was on every way out (release(), process
// exit); typed input forwarded; the window size followed by SIGWINCH and a
// periodic check, for terminals that send none; signal handlers that are
// removed again with everything else.
import process from "node:process";

/** How often the window size is compared, for terminals that send no SIGWINCH. */
const SIZE_CHECK_MS = 500;

/** The size of this terminal, or 80x24 when stdout is not one. */
export function terminalSize(): { cols: number; rows: number } {
  const out = process.stdout;
  if (out.isTTY) {
    try {
      const [cols, rows] = out.getWindowSize();
      if (cols > 0 && rows > 0) return { cols, rows };
    } catch {
      // fall through to the default
    }
  }
  return { cols: 80, rows: 24 };
}

/** This process's terminal, held for a program until release(). */
export class TerminalHold {
  #undo: (() => void)[] = [];
  #raw = false;
  #wasRaw = false;
  #released = false;

  constructor() {
    const restore = () => this.restoreMode();
    process.on("exit", restore);
    this.#undo.push(() => process.off("exit", restore));
  }

  /** True while stdin is in raw mode because of this hold. */
  get raw(): boolean {
    return this.#raw;
  }

  /** Raw mode, when stdin is a terminal; restoreMode() puts back the mode it had. */
  rawMode(): void {
    const stdin = process.stdin;
    if (!stdin.isTTY || this.#raw) return;
    this.#wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    this.#raw = true;
  }

  /** Every chunk typed goes to `onInput` (and `onEnd` at end of input) until release(). */
  readInput(onInput: (chunk: Uint8Array) => void, onEnd?: () => void): void {
    const stdin = process.stdin;
    stdin.on("data", onInput);
    if (onEnd !== undefined) stdin.on("end", onEnd);
    stdin.resume();
    this.#undo.push(() => {
      stdin.off("data", onInput);
      if (onEnd !== undefined) stdin.off("end", onEnd);
      stdin.pause();
    });
  }

  /** `onResize` with the new size whenever the window changes (SIGWINCH, or the periodic check). */
  followSize(onResize: (size: { cols: number; rows: number }) => void): void {
    let last = terminalSize();
    const check = () => {
      const now = terminalSize();
      if (now.cols === last.cols && now.rows === last.rows) return;
      last = now;
      onResize(now);
    };
    const timer = setInterval(check, SIZE_CHECK_MS);
    process.stdout.on("resize", check);
    this.#undo.push(() => {
      clearInterval(timer);
      process.stdout.off("resize", check);
    });
  }

  /** A signal handler until release(); a runtime that cannot listen for it leaves its default. */
  on(signal: NodeJS.Signals, handler: () => void): void {
    try {
      process.on(signal, handler);
      this.#undo.push(() => process.off(signal, handler));
    } catch {
      // A runtime that cannot listen for this signal leaves its default.
    }
  }

  /** Puts back the terminal mode stdin had before rawMode(). Idempotent. */
  restoreMode(): void {
    if (!this.#raw) return;
    this.#raw = false;
    try {
      process.stdin.setRawMode(this.#wasRaw);
    } catch {
      // stdin already closed: nothing to restore
    }
  }

  /** Restores the mode and removes every handler; waits for stdout to take what was written. Idempotent. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    this.restoreMode();
    for (const undo of this.#undo.splice(0)) undo();
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  }
}
