// Where a session's output goes, in order (PtySession holds one): the hooked
// shell's marks are taken out first (to its ShellState, never to the screen,
// a recording or an attached terminal), then the screen is fed, then the
// stream window waits read lines from, then whoever listens (attach,
// recordings). A re-adopted session replays the guardian's raw tail the same
// way, and its screen is approximate until the program redraws it whole.
import type { Screen } from "./screen.ts";
import type { ShellHook } from "./shell-integration.ts";
import { ShellMarkFilter } from "./shell-marks.ts";
import { type ShellEvent, ShellState, withoutMarks } from "./shell-state.ts";
import { StreamWindow } from "./stream-window.ts";

/**
 * Output that repaints the whole screen, after which a re-adopted screen is
 * exact again: clear screen (ED 2), the alternate screen switched on, a reset.
 */
// deno-lint-ignore no-control-regex -- control sequences are what this finds
const REDRAW = /\x1b\[2J|\x1b\[\?(?:1049|1047|47)h|\x1bc/;
function redraws(bytes: Uint8Array): boolean {
  return REDRAW.test(new TextDecoder("latin1").decode(bytes));
}

/** A re-adopted session's start: the guardian's raw tail, ending at the output position. */
export interface ReplayedTail {
  readonly backlog: Uint8Array;
  readonly position: number;
}

export class SessionOutput {
  /** The output as lines with positions, for waits (DESIGN.md 4.8). */
  readonly stream = new StreamWindow();
  /** The hooked shell's state (null: no shell integration). */
  readonly shell: ShellState | null;
  readonly #marks: ShellMarkFilter | null;
  readonly #listeners = new Set<(bytes: Uint8Array) => void>();
  /** Re-adopted from a tail shorter than the history: the screen may differ until the program redraws. */
  #approximate = false;

  constructor(private readonly screen: Screen, hook: ShellHook | undefined, adopted?: ReplayedTail) {
    this.#marks = hook === undefined ? null : new ShellMarkFilter(hook.nonce);
    this.shell = hook === undefined ? null : new ShellState(hook.kind, hook.nonce);
    if (adopted !== undefined) {
      this.stream.startAt(adopted.position - adopted.backlog.length);
      this.stream.feed(adopted.backlog);
      this.#approximate = adopted.position > adopted.backlog.length;
    }
  }

  /** The screen may differ from the program's: re-adopted from a short tail, or the emulator failed on some output. */
  get approximate(): boolean {
    return this.#approximate || this.screen.faulted;
  }

  /** Bytes the program wrote, as they came. */
  take(bytes: Uint8Array): void {
    const events: ShellEvent[] = [];
    const shown = this.#marks === null ? bytes : withoutMarks(this.#marks, bytes, this.stream.position, events);
    // The screen first: a wait that the stream ends reads a screen holding these bytes.
    this.screen.feed(shown);
    this.stream.feed(bytes);
    if ((this.#approximate || this.screen.faulted) && redraws(shown)) {
      this.#approximate = false;
      this.screen.forgetFault();
    }
    if (shown.length > 0) for (const listener of this.#listeners) listener(shown);
    this.#tellShell(events);
  }

  /** At the exit: bytes held back as the start of a mark were output after all. */
  flushMarks(): void {
    this.#marks?.flush({ bytes: (held) => this.screen.feed(held), mark: () => {} });
  }

  /** The raw tail read as it came the first time: the marks rebuild the shell's state; returns the screen's part. */
  replayed(adopted: ReplayedTail): Uint8Array {
    if (this.#marks === null) return adopted.backlog;
    const events: ShellEvent[] = [];
    const shown = withoutMarks(this.#marks, adopted.backlog, adopted.position - adopted.backlog.length, events);
    this.#tellShell(events);
    return shown;
  }

  /** Output as shown (marks taken out), as it arrives; returns the unsubscribe function. */
  onOutput(listener: (bytes: Uint8Array) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tellShell(events: readonly ShellEvent[]): void {
    for (const event of events) "mark" in event ? this.shell?.mark(event.mark) : this.shell?.bytes(event.bytes);
  }
}
