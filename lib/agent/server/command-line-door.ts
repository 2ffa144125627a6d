// The agent's side of the native client's door (native/client/): the agent
// runs a corral command line for a client that did not want to pay a
// JavaScript runtime's start. What a command line does is the CLI's to know
// (lib/ never imports cli/), so the CLI that starts the agent hands it this
// door (cli/commands/agent/command-line-door.ts); an agent without one
// serves nothing and every client takes the JavaScript door.
import type { CommandLineRequest } from "../protocol/operations.ts";

/** Where a served command's output goes: output frames on the client's connection. */
export interface CommandOutput {
  /** Writes to the client's stdout (1) or stderr (2); false when the caller should wait for `drained`. */
  write(fd: 1 | 2, bytes: Uint8Array): boolean;
  /** Settles when the connection has taken what was written (or closed). */
  drained(): Promise<void>;
}

/** Where a served command's stdin comes from: the client's, one pulled frame at a time. */
export interface CommandInput {
  /** The next piece of the client's stdin; null at its end (or when the client has gone). */
  read(): Promise<Uint8Array | null>;
}

/** The connection's stdin: it can also tell a `connect` client that its stdin and stdout were taken. */
export interface ConnectionInput extends CommandInput {
  /** Sends the input frame that says so (frames.ts ADOPTED): the client pushes nothing, and waits. */
  adopted(): void;
}

/**
 * A served `connect`'s requests (the command line's `lines`): each runs as
 * one of this connection's own, checked and routed as a request frame
 * would be, and is answered with the reply as connect writes it: `ref`
 * (when given) in the place of the id, then `ok: true` and the body, or
 * `ok: false` and the error. Asked one at a time, in the client's order;
 * `message` is taken (its id is set).
 */
export interface CommandRequests {
  run(message: Record<string, unknown>, ref: unknown): Promise<Record<string, unknown>>;
}

/**
 * Told of each `connect` line that gets a reply, before the reply is
 * written: where the line ends in stdin (an adopted connect's ledger,
 * adopted-stdio.ts).
 */
export interface LineLedger {
  lineTaken(end: number): void;
}

export interface CommandLineDoor {
  /** Null when the agent runs this command line; otherwise why not (the client hands it over). */
  refusal(request: CommandLineRequest): string | null;
  /**
   * Runs it; returns the exit status. `signal` aborts when the client goes
   * away. `ledger`: a `connect` whose stdin and stdout the agent took.
   */
  run(request: CommandLineRequest, output: CommandOutput, signal: AbortSignal, input: CommandInput, requests: CommandRequests, ledger?: LineLedger): Promise<number>;
}
