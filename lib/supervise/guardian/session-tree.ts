// A terminal session under its guardian (tree.ts starts or adopts it): the
// guardian (native/corral-guardian) owns the master. It drains the terminal
// after the program exits before it reports the exit (nothing lost), is the
// subreaper of everything the program starts (setsid and double-fork
// included) and terminates by census with receipts.
import { type Guardian, GuardianError } from "./client.ts";
import { signalName } from "../../runtime/signals.ts";
import type { GuardianLink, SignalTarget, SupervisedTree, SupervisedTreeEvents } from "../handle.ts";
import type { Receipt } from "../../core/receipt.ts";
import { TreeEvents } from "../tree-events.ts";
import { receiptOfCensus } from "../receipts.ts";
import { endWhatTheCensusMissed } from "./census-unseen.ts";
import { DEFAULT_GRACE_MS } from "../../core/defaults.ts";
import { afterGuardianLoss } from "./guardian-loss.ts";
import type { FaultEvent } from "./protocol.ts";

/** The grace a tree gets when its guardian was lost and corral ends it itself. */
const LOSS_GRACE_MS = 1000;

/** Input a session may have in flight to its guardian before a send waits (issue 15, item 5). */
const INPUT_BACKLOG_BYTES = 1024 * 1024;

/** A terminal session under its guardian (tree.ts starts or adopts it). */
export class GuardianSession implements SupervisedTree {
  readonly backend = "guardian" as const;
  /** Output that arrives before anyone listens is held (it can come in the same read as "started"). */
  readonly #events = new TreeEvents();
  #eof = false;
  #shutdown: Promise<unknown> | undefined;
  pid = 0;
  link: GuardianLink | undefined;

  /** Listens from the start: events are dispatched before an `await guardian.started` resumes. */
  constructor(private readonly guardian: Guardian) {
    guardian.on("output", (_stream, bytes) => this.#events.output(bytes));
    guardian.on("stopped", (signal) => this.#events.stopped(signal));
    guardian.on("continued", () => this.#events.continued());
    guardian.on("eof", () => {
      this.#eof = true;
    });
    // The guardian sends the exit after draining the master (EOF, or its
    // drain deadline when a descendant keeps the terminal open).
    guardian.on("exited", (e) => this.#exited(e.code, e.signal === null ? null : signalName(e.signal)));
    // What went wrong in the guardian is kept: an end it cannot know is reported with why.
    guardian.on("fault", (f) => this.#faults.push(f));
    // A guardian whose connection closed before the end: the end is not invented (guardian-loss.ts).
    guardian.on("close", () => {
      if (this.#events.exited === undefined) this.#lost ??= this.#afterLoss();
    });
  }

  readonly #faults: FaultEvent[] = [];
  #lost: Promise<Receipt> | undefined;

  async #afterLoss(): Promise<Receipt> {
    const { loss, receipt } = await afterGuardianLoss(this.guardian, LOSS_GRACE_MS);
    this.#events.exit({ code: null, signal: null, outputComplete: false, supervisorLost: loss });
    return receipt;
  }

  #exited(code: number | null, signal: string | null): void {
    const waitFault = code === null && signal === null ? this.#faults.find((f) => f.syscall.startsWith("wait")) : undefined;
    const unknownWhy = waitFault === undefined ? undefined : `the guardian could not learn the exit status (${waitFault.syscall} failed: ${waitFault.message})`;
    this.#events.exit({ code, signal, outputComplete: this.#eof, ...(unknownWhy !== undefined ? { unknownWhy } : {}) });
  }

  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.#events.on(event, listener);
  }

  write(data: Uint8Array | string): void {
    if (this.#events.exited === undefined) this.guardian.write(data);
  }

  inputDrained(): Promise<void> {
    return this.guardian.inputDrained(INPUT_BACKLOG_BYTES);
  }

  resize(cols: number, rows: number): void {
    if (this.#events.exited === undefined) this.guardian.resize(rows, cols).catch(() => {});
  }

  /**
   * Resolves once every byte the program wrote before the call has come in
   * as output: the guardian frames what the terminal already holds before it
   * answers a signal request (native/streams.c, streams_catch_up), and signal
   * 0 changes nothing. Resolves too when the guardian is gone.
   */
  outputBarrier(): Promise<void> {
    if (this.#events.exited !== undefined) return Promise.resolve();
    return this.guardian.signal(0, "child").catch(() => {});
  }

  /** Silently nothing when the guardian is gone. */
  signal(signal: string, target: SignalTarget): Promise<void> {
    return this.guardian.signal(signal, target).catch(() => {});
  }

  async terminate(graceMs = DEFAULT_GRACE_MS, firstSignal: NodeJS.Signals = "SIGTERM"): Promise<Receipt> {
    if (this.#lost !== undefined) return await this.#lost;
    try {
      // A guardian blind to /proc leaves its adopted escapees to us (census-unseen.ts).
      return receiptOfCensus(await endWhatTheCensusMissed(this.guardian, await this.guardian.terminate(graceMs, firstSignal), graceMs));
    } catch (error) {
      // The guardian is gone: what is left of its tree is ended here, and the receipt says what could not be.
      if (error instanceof GuardianError && error.code === "closed") return await (this.#lost ??= this.#afterLoss());
      throw error;
    }
  }

  pause(): void {
    this.guardian.pause();
  }

  resume(): void {
    this.guardian.resume();
  }

  dispose(): void {
    this.guardian.resume();
    this.#shutdown ??= this.guardian.shutdown(0).catch(() => {});
  }
}
