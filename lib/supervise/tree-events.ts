// The listener side of every SupervisedTree (handle.ts), written once: any
// number of listeners per event, output held until the first output
// listener (early-output.ts), and `exit`/`done` told at once to a listener
// that comes after them, so no caller races its supervisor's first events.
import type { ExitFacts } from "../core/exit-facts.ts";
import type { Receipt } from "../core/receipt.ts";
import { EarlyOutput } from "./early-output.ts";
import type { SupervisedTreeEvents, TreeExit } from "./handle.ts";

type Listeners = { [K in keyof SupervisedTreeEvents]: SupervisedTreeEvents[K][] };

/** The events of one tree, fired by its implementation. */
export class TreeEvents {
  readonly #listeners: Listeners = { output: [], stopped: [], continued: [], exit: [], done: [] };
  readonly #output = new EarlyOutput();
  #exit: TreeExit | undefined;
  #done: [ExitFacts, Receipt] | undefined;

  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.#listeners[event].push(listener);
    if (event === "output" && this.#listeners.output.length === 1) {
      this.#output.listen((bytes) => {
        for (const each of this.#listeners.output) each(bytes);
      });
    }
    if (event === "exit" && this.#exit !== undefined) (listener as SupervisedTreeEvents["exit"])(this.#exit);
    if (event === "done" && this.#done !== undefined) (listener as SupervisedTreeEvents["done"])(...this.#done);
  }

  /** The program's bytes: delivered now, or held until someone listens. */
  output(bytes: Uint8Array): void {
    this.#output.push(bytes);
  }

  stopped(signal: number): void {
    for (const listener of this.#listeners.stopped) listener(signal);
  }

  continued(): void {
    for (const listener of this.#listeners.continued) listener();
  }

  /** Once; later calls are ignored. */
  exit(exit: TreeExit): void {
    if (this.#exit !== undefined) return;
    this.#exit = exit;
    for (const listener of this.#listeners.exit) listener(exit);
  }

  /** Once, after exit (told first from the facts when the implementation did not). */
  done(facts: ExitFacts, receipt: Receipt): void {
    if (this.#done !== undefined) return;
    this.exit({ code: facts.code, signal: facts.signal, outputComplete: facts.outputComplete });
    this.#done = [facts, receipt];
    for (const listener of this.#listeners.done) listener(facts, receipt);
  }

  /** The receipt of the tree's own sweep, once done. */
  get swept(): Receipt | undefined {
    return this.#done?.[1];
  }

  /** The exit, once told. */
  get exited(): TreeExit | undefined {
    return this.#exit;
  }
}
