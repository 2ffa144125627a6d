// A tree that sweeps itself, without a guardian (none built, or not Linux):
// what a background job holds (tree.ts starts it over a pipe tree). The
// process group, one merged pipe. Weaker, as `corral probe` documents: no
// stop/continue events (a stopped job still shows `running`), and only the
// process group is terminated, not descendants that left it.
import { signalGroup } from "../runtime-quirks.ts";
import type { ByteSink } from "../spec.ts";
import type { SignalTarget, SupervisedTree, SupervisedTreeEvents } from "../handle.ts";
import { TreeEvents } from "../tree-events.ts";
import { confirmed, type Receipt, receiptOfLeftovers } from "../../core/receipt.ts";

/** Stop signals: refused, as the group cannot report that its members stopped. */
const STOPS = new Set(["SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU"]);

/** A pipe job over a pipe tree in its own process group. */
export class GroupJob implements SupervisedTree {
  readonly backend = "process-group" as const;
  pid = 0;
  child: SupervisedTree | null = null;
  readonly events = new TreeEvents();
  #paused = false;
  #drain: (() => void)[] = [];

  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.events.on(event, listener);
  }

  /** Where the child's pipe writes: false asks the pipe to pause while the store catches up. */
  readonly sink: ByteSink = {
    write: (chunk) => {
      this.events.output(chunk);
      return !this.#paused;
    },
    onDrain: (listener) => {
      if (!this.#paused) listener();
      else this.#drain.push(listener);
    },
  };

  /** A pipe job has no terminal: input is dropped. */
  write(): void {}

  resize(): void {}

  /** The whole group either way (it has no terminal, so no foreground job); stop signals are refused. */
  signal(signal: string, _target: SignalTarget): Promise<void> {
    if (STOPS.has(signal)) return Promise.reject(new Error("stopping needs the guardian's stop events"));
    signalGroup(this.pid, signal as NodeJS.Signals);
    return Promise.resolve();
  }

  async terminate(graceMs?: number, firstSignal: NodeJS.Signals = "SIGTERM"): Promise<Receipt> {
    const child = this.child;
    if (child === null) return confirmed();
    return await child.terminate(graceMs, firstSignal);
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    for (const listener of this.#drain.splice(0)) listener();
  }

  /** Nothing held: the pipe closes with the child. */
  dispose(): void {}

  /** The pipe tree it runs over, started with `sink` as its output: its end becomes `done`. */
  adopt(child: SupervisedTree): void {
    this.pid = child.pid;
    this.child = child;
    void child.exited?.then((result) => {
      const receipt = receiptOfLeftovers(result.facts.forced, result.uncertain);
      this.events.done(result.facts, receipt);
    });
  }
}
