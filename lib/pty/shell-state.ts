// What the hooked shell's marks say about it: at its prompt, in a
// continuation prompt (PS2), running a command, or not yet at its first
// prompt; its working directory; the last command that finished. Rebuilt
// the same way when a new agent replays the guardian's raw tail, so a
// re-adopted session knows its shell as well as the old agent did.
import type { ShellMark, ShellMarkFilter } from "./shell-marks.ts";
import type { ShellKind } from "./shell-scripts.ts";
import { StreamProjector } from "./stream-lines.ts";

/** Where the shell is, as its marks tell. */
export type ShellPhase = "starting" | "prompt" | "continuation" | "running";

/** A command the shell finished (`pty screen --json` lastCommand). */
export interface FinishedCommand {
  /** The command line: what `pty exec` typed, else what was echoed after the prompt (null when unknown). */
  readonly line: string | null;
  readonly status: number;
  /** When the finish mark arrived (ms since the epoch). */
  readonly at: number;
  /** Output positions of the command's own output: after the output mark, up to the finish mark. */
  readonly from: number;
  readonly to: number;
  /** The working directory the shell's next prompt gave (null when none came). */
  readonly cwd: string | null;
}

/** A piece of what the shell wrote, as the filter handed it on: output bytes or a mark. */
export type ShellEvent = { readonly bytes: Uint8Array } | { readonly mark: ShellMark };

/** `bytes` without this session's marks; the marks and the bytes between them, in order, into `events`. */
export function withoutMarks(filter: ShellMarkFilter, bytes: Uint8Array, position: number, events: ShellEvent[]): Uint8Array {
  const pieces: Uint8Array[] = [];
  filter.scan(bytes, position, {
    bytes: (piece) => {
      pieces.push(piece);
      events.push({ bytes: piece });
    },
    mark: (mark) => events.push({ mark }),
  });
  if (pieces.length === 1 && events.length === 1) return pieces[0] as Uint8Array;
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
/** Bytes of echo kept to name a typed command line. */
const ECHO_MAX = 4096;
/** Finished commands kept for a wait that starts after they finished (`--after`). */
const RECENT_MAX = 32;

/** One hooked shell's state. */
export class ShellState {
  readonly kind: ShellKind;
  readonly nonce: string;
  #phase: ShellPhase = "starting";
  #cwd: string | null = null;
  #last: FinishedCommand | null = null;
  /** A prompt end (B) came after the last prompt start: bytes since then are what was typed. */
  #promptEnded = false;
  /** Printable bytes arrived after the prompt's end: the command line is not empty. */
  #typed = false;
  #echo: Uint8Array[] = [];
  #echoBytes = 0;
  #running: { from: number; line: string | null } | null = null;
  /** The line the next command was typed as, by `pty exec`. */
  #pendingLine: string | null = null;
  #listeners = new Set<(event: ShellEvent) => void>();
  /** Finished, waiting for the next prompt's working directory. */
  #finishing: FinishedCommand | null = null;
  #recent: FinishedCommand[] = [];
  #doneListeners = new Set<(command: FinishedCommand) => void>();

  constructor(kind: ShellKind, nonce: string) {
    this.kind = kind;
    this.nonce = nonce;
  }

  get phase(): ShellPhase {
    return this.#phase;
  }

  get cwd(): string | null {
    return this.#cwd;
  }

  get lastCommand(): FinishedCommand | null {
    return this.#last;
  }

  /** The prompt is drawn (its end mark came): the line editor is ready, typed text is not echoed twice. */
  get atPromptEnd(): boolean {
    return this.#phase === "prompt" && this.#promptEnded;
  }

  /** Text follows the prompt (typed and not yet run): a command typed now would be appended to it. */
  get lineHoldsText(): boolean {
    return this.#phase === "prompt" && this.#promptEnded && this.#typed;
  }

  /** `pty exec` names the line it types: lastCommand.line is exactly that. */
  expectLine(line: string): void {
    this.#pendingLine = line;
  }

  /** See commandDone(). */
  whenDone(after: number | "now" | "next", signal: AbortSignal): Promise<FinishedCommand | null> {
    if (after === "now" && this.#phase !== "running" && this.#finishing === null) return Promise.resolve(this.#last);
    if (typeof after === "number") {
      const done = this.#recent.find((c) => c.to >= after);
      if (done !== undefined) return Promise.resolve(done);
    }
    return new Promise((resolve) => {
      const listener = (command: FinishedCommand) => {
        if (typeof after === "number" && command.to < after) return;
        stop();
        resolve(command);
      };
      const onAbort = () => {
        stop();
        resolve(null);
      };
      const stop = () => {
        this.#doneListeners.delete(listener);
        signal.removeEventListener("abort", onAbort);
      };
      this.#doneListeners.add(listener);
      signal.addEventListener("abort", onAbort);
    });
  }

  #finished(command: FinishedCommand): void {
    this.#finishing = null;
    this.#last = command;
    this.#recent.push(command);
    if (this.#recent.length > RECENT_MAX) this.#recent.shift();
    for (const listener of [...this.#doneListeners]) listener(command);
  }

  /** Every event from now on, in order; returns the unsubscribe function. */
  listen(listener: (event: ShellEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  bytes(bytes: Uint8Array): void {
    if (this.#phase === "prompt" && this.#promptEnded) {
      if (!this.#typed && printable(bytes)) this.#typed = true;
      if (this.#echoBytes < ECHO_MAX) {
        this.#echo.push(bytes.slice(0, ECHO_MAX - this.#echoBytes));
        this.#echoBytes += Math.min(bytes.length, ECHO_MAX - this.#echoBytes);
      }
    }
    for (const listener of this.#listeners) listener({ bytes });
  }

  mark(mark: ShellMark): void {
    switch (mark.kind) {
      case "A":
        if (mark.cwd !== undefined) this.#cwd = mark.cwd;
        if (this.#finishing !== null) this.#finished({ ...this.#finishing, cwd: this.#cwd });
        // A line exec typed that never started (refused, cancelled) names no later command.
        this.#pendingLine = null;
        this.#phase = "prompt";
        this.#promptEnded = false;
        this.#typed = false;
        break;
      case "B":
        this.#phase = "prompt";
        this.#promptEnded = true;
        this.#typed = false;
        this.#echo = [];
        this.#echoBytes = 0;
        break;
      case "P":
        this.#phase = "continuation";
        break;
      case "C":
        this.#running = { from: mark.end, line: this.#pendingLine ?? echoedLine(this.#echo) };
        this.#pendingLine = null;
        this.#phase = "running";
        break;
      case "D":
        // A finish without a start is an empty line or a cancelled prompt: no command ran.
        if (this.#running !== null && mark.status !== undefined) {
          this.#finishing = { line: this.#running.line, status: mark.status, at: Date.now(), from: this.#running.from, to: mark.at, cwd: null };
        }
        this.#running = null;
        this.#phase = "prompt";
        this.#promptEnded = false;
        break;
    }
    for (const listener of this.#listeners) listener({ mark });
  }
}

/**
 * Resolves when a command has finished (its next prompt gave the working
 * directory): the first finish at or after position `after`, the next one
 * (`next`), or at once when no command runs (`now`: the last one, null
 * before any). Resolves null when `signal` aborts.
 */
export function commandDone(shell: ShellState, after: number | "now" | "next", signal: AbortSignal): Promise<FinishedCommand | null> {
  return shell.whenDone(after, signal);
}

// A byte that shows on the terminal outside an escape sequence: a typed character.
function printable(bytes: Uint8Array): boolean {
  let inEscape = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (inEscape) {
      // The final byte of a CSI or a two-byte escape ends it; strings end at BEL.
      if (byte >= 0x40 && byte <= 0x7e && bytes[i - 1] !== 0x1b) inEscape = false;
      else if (byte === 0x07) inEscape = false;
      continue;
    }
    if (byte === 0x1b) {
      inEscape = true;
      const next = bytes[i + 1];
      // ESC followed by a final byte at once (ESC =, ESC >, ESC 7): two bytes.
      if (next !== undefined && next !== 0x5b && next !== 0x5d && next !== 0x28 && next !== 0x29) {
        i++;
        inEscape = false;
      }
      continue;
    }
    if (byte >= 0x20 && byte !== 0x7f) return true;
  }
  return false;
}

// The echo after the prompt as the text a person saw typed: the stream's
// small terminal model applies backspaces, carriage returns and cursor moves.
function echoedLine(chunks: readonly Uint8Array[]): string | null {
  if (chunks.length === 0) return null;
  const lines: string[] = [];
  const projector = new StreamProjector((line) => lines.push(line.text));
  projector.feed(concat(chunks));
  projector.finish();
  const text = lines.map((line) => line.trimEnd()).join("\n").trim();
  return text === "" ? null : text;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
