// A `connect` client's stdin and stdout in the agent's hands (the drop:
// descriptor-drop.ts). The lines are read and the replies written here, by
// the served connect's own loop (cli/commands/connect/served-lines.ts), so
// a lockstep request crosses the agent alone, as a `tmux -C` command
// crosses tmux's server alone: no relay process wakes twice for it.
// Stdin's bytes are kept in the client's ledger until their replies are in
// the kernel (ledger.ts); the client, which waits on the agent's socket,
// answers from it if the agent dies. The client's stderr stays on the
// connection: a served connect writes there only to report a failure.
import { closeSync, fstatSync } from "node:fs";
import net from "node:net";
import { LEDGER_BYTES, LedgerState } from "../protocol/connect-ledger.ts";
import type { CommandInput, CommandOutput, LineLedger } from "./command-line-door.ts";
import type { DroppedStdio } from "./descriptor-drop.ts";
import { ConnectLedger } from "./adopted-ledger.ts";

/** Replies waiting in the agent for the client's reader before the lines wait too (as a connection's unsent replies). */
const UNSENT_HIGH = 1024 * 1024;

export class AdoptedStdio implements CommandInput, LineLedger {
  readonly #stdin: net.Socket;
  readonly #stdout: net.Socket;
  readonly #ledger: ConnectLedger;
  readonly #stderr: CommandOutput;
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #wanted: ((chunk: Uint8Array | null) => void) | null = null;
  /** Where the lines taken end in stdin, in the order of their replies. */
  readonly #lineEnds: number[] = [];
  /** Replies handed to the socket, and of those, the ones in the kernel. */
  #written = 0;
  #flushed = 0;
  /** The reader of stdout went away (EPIPE): the conversation is over. */
  #broken = false;

  private constructor(dropped: DroppedStdio, ledger: ConnectLedger, stderr: CommandOutput, signal: AbortSignal) {
    this.#stderr = stderr;
    this.#ledger = ledger;
    this.#stdin = new net.Socket({ fd: dropped.stdin, readable: true, writable: false, allowHalfOpen: true });
    this.#stdout = new net.Socket({ fd: dropped.stdout, readable: false, writable: true, allowHalfOpen: true });
    this.#stdin.on("data", (chunk: Uint8Array) => this.#came(chunk));
    this.#stdin.on("end", () => this.#end());
    this.#stdin.on("error", () => this.#end());
    this.#stdout.on("error", () => {
      this.#broken = true;
      this.#end();
    });
    signal.addEventListener("abort", () => this.close(), { once: true });
  }

  /**
   * Takes what the client dropped; a string says why not (the descriptors
   * are closed then, and the client relays). Only pipes and sockets: a
   * terminal or a file is the client's to read.
   */
  static adopt(dropped: DroppedStdio, stderr: CommandOutput, signal: AbortSignal): AdoptedStdio | string {
    let ledger: ConnectLedger;
    try {
      for (const fd of [dropped.stdin, dropped.stdout]) {
        const stat = fstatSync(fd);
        if (!stat.isFIFO() && !stat.isSocket()) throw new Error("stdin and stdout must be pipes or sockets");
      }
      ledger = new ConnectLedger(dropped.map(dropped.ledger, LEDGER_BYTES));
    } catch (error) {
      closeQuietly([dropped.stdin, dropped.stdout]);
      return (error as Error).message;
    } finally {
      closeQuietly([dropped.ledger]); // mapped (or not to be): the mapping keeps the memory
    }
    // From here the sockets own the descriptors.
    return new AdoptedStdio(dropped, ledger, stderr, signal);
  }

  /** The exit status the conversation ends with: 141 when its reader went away, as a shell reports SIGPIPE. */
  get status(): number {
    return this.#broken ? 141 : 0;
  }

  read(): Promise<Uint8Array | null> {
    const next = this.#chunks.shift();
    if (next !== undefined) {
      this.#readOn();
      return Promise.resolve(next);
    }
    if (this.#ended) return Promise.resolve(null);
    return new Promise((resolve) => (this.#wanted = resolve));
  }

  lineTaken(end: number): void {
    this.#lineEnds.push(end);
  }

  /** Replies to stdout; stderr goes over the connection. */
  readonly output: CommandOutput = {
    write: (fd, bytes) => {
      if (fd === 2) return this.#stderr.write(2, bytes);
      if (this.#broken || this.#stdout.destroyed) return true;
      const reply = ++this.#written;
      this.#ledger.replyState(LedgerState.writing);
      this.#stdout.write(bytes, (error) => {
        if (error === null || error === undefined) this.#flushedTo(reply);
      });
      // Written whole at once (the common case): its line is answered now, not a turn later.
      if (this.#stdout.writableLength === 0) this.#flushedTo(reply);
      else this.#ledger.replyState(LedgerState.partial);
      return this.#stdout.writableLength <= UNSENT_HIGH;
    },
    drained: async () => {
      while (this.#stdout.writableLength > UNSENT_HIGH && !this.#stdout.destroyed) await this.#drain();
    },
  };

  /** Once every reply is in the kernel (or the reader went away), lets go of both descriptors. */
  async finish(): Promise<void> {
    while (this.#stdout.writableLength > 0 && !this.#stdout.destroyed && !this.#broken) await this.#drain();
    this.close();
  }

  /** Settles at stdout's next drain (or its close). */
  #drain(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#stdout.off("drain", done);
        this.#stdout.off("close", done);
        resolve();
      };
      this.#stdout.once("drain", done);
      this.#stdout.once("close", done);
    });
  }

  /** Closes the agent's copies at once (never a shutdown: the client's copies stay open). */
  close(): void {
    this.#stdin.destroy();
    this.#stdout.destroy();
    this.#end();
  }

  #came(chunk: Uint8Array): void {
    this.#ledger.add(chunk);
    const wanted = this.#wanted;
    if (wanted !== null) {
      this.#wanted = null;
      wanted(chunk);
    } else {
      this.#chunks.push(chunk);
    }
    // The ledger holds what is read and not answered: reading stops while it is half full.
    if (this.#ledger.held > this.#ledger.capacity / 2) this.#stdin.pause();
  }

  #readOn(): void {
    if (this.#ledger.held <= this.#ledger.capacity / 4 && !this.#stdin.destroyed) this.#stdin.resume();
  }

  #end(): void {
    this.#ended = true;
    const wanted = this.#wanted;
    this.#wanted = null;
    wanted?.(null);
  }

  #flushedTo(reply: number): void {
    let end: number | undefined;
    while (this.#flushed < reply) {
      this.#flushed++;
      end = this.#lineEnds.shift() ?? end;
    }
    if (end !== undefined) this.#ledger.answeredTo(end);
    this.#ledger.replyState(this.#flushed === this.#written ? LedgerState.settled : LedgerState.partial);
    this.#readOn();
  }
}

function closeQuietly(fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}
