// This terminal handed to a job (run --tty, fg) over an attached agent
// connection, on the one terminal hold (cli/shared/terminal-hold.ts): output
// written as it comes, input forwarded once the job's terminal is attached,
// the window size followed, until the job stops (Ctrl-Z) or ends. The
// terminal is restored on every way out: the job's end, its stop, the agent
// going away, SIGTERM/SIGHUP to corral, an exception, process exit. SIGTSTP,
// SIGTTOU and SIGTTIN are caught as no-ops while attached, not ignored: an
// ignored disposition would be inherited by programs corral starts.
import process from "node:process";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import type { JobInfo } from "../../../lib/agent/protocol/messages.ts";
import { FORWARDED_SIGNALS } from "../signal-death.ts";
import { TerminalHold } from "../terminal-hold.ts";

export { terminalSize } from "../terminal-hold.ts";

/** How holding the terminal ended. */
export type HoldEnd =
  | { readonly kind: "stopped"; readonly job: JobInfo }
  | { readonly kind: "done"; readonly job: JobInfo }
  | { readonly kind: "lost"; readonly why: string };

/** Signals that would stop or kill a client whose terminal is in raw mode. */
const CAUGHT: readonly NodeJS.Signals[] = ["SIGTTOU", "SIGTTIN"];
const ENDING = FORWARDED_SIGNALS;

/** One handoff of this terminal to a job over an attached agent connection. */
export class JobTerminal {
  readonly ended: Promise<HoldEnd>;
  #finish!: (end: HoldEnd) => void;
  readonly #hold = new TerminalHold();
  /** Input typed before the job's terminal is attached; null once it flows. */
  #held: Uint8Array[] | null = [];
  #released = false;
  #forwarded: NodeJS.Signals | null = null;

  /** Wires output and events at once: call before the request that attaches, so nothing is missed. */
  constructor(readonly client: AgentClient) {
    this.ended = new Promise((resolve) => (this.#finish = resolve));
    const stdout = process.stdout;
    client.onBytes = (bytes) => {
      if (!stdout.write(bytes)) {
        client.pause();
        stdout.once("drain", () => client.resume());
      }
    };
    client.onEvent = (event) => {
      if (event.event === "job-stopped") this.#finish({ kind: "stopped", job: event.job });
      if (event.event === "job-done") this.#finish({ kind: "done", job: event.job });
    };
    client.onClose = () => this.#finish({ kind: "lost", why: "the agent closed the connection" });
    const noop = () => {};
    for (const signal of CAUGHT) this.#hold.on(signal, noop);
    // In raw mode Ctrl-Z is a byte for the job's own terminal, and SIGTSTP from elsewhere is
    // ignored; a job without a terminal (pipe) is stopped on our Ctrl-Z instead, as a shell does.
    this.#hold.on("SIGTSTP", () => {
      if (!this.#hold.raw) this.client.sendAttached({ op: "job-signal", signal: "SIGTSTP" });
    });
    // Ended from outside: the job is terminated (its whole tree, that signal first), then we
    // return its status, or die of the signal when it killed the job.
    for (const signal of ENDING) {
      this.#hold.on(signal, () => {
        this.#forwarded ??= signal;
        this.client.sendAttached({ op: "job-signal", signal });
      });
    }
  }

  /**
   * Raw mode and size following, before the request that attaches: a program
   * that queries the terminal at once (vim) must get the answer, not leave it
   * in the shell's input. Input is held until inputToJob() (the connection
   * carries bytes only once attached).
   */
  takeTerminal(): void {
    this.#hold.followSize(({ cols, rows }) => this.client.sendResize(cols, rows));
    if (!process.stdin.isTTY) return;
    this.#hold.rawMode();
    this.#hold.readInput((chunk) => {
      if (this.#held === null) this.client.sendBytes(chunk);
      else this.#held.push(chunk);
    });
  }

  /** The first signal corral received and forwarded to the job, or null. */
  get forwarded(): NodeJS.Signals | null {
    return this.#forwarded;
  }

  /** The job has a terminal of its own: what was typed so far goes to it, and all that follows. */
  inputToJob(): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const chunk of held) this.client.sendBytes(chunk);
  }

  /** The job has no terminal (a pipe job in fg): this one goes back to normal mode. */
  keepInput(): void {
    this.#held = [];
    this.#hold.restoreMode();
    if (process.stdin.isTTY) process.stdin.pause();
  }

  /** Restores everything; waits for stdout to take what was written. Idempotent. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    this.client.onBytes = null;
    this.client.onEvent = null;
    this.client.onClose = null;
    await this.#hold.release();
  }
}
