// A tree that sweeps itself, without a guardian (none built, or not Linux):
// what a background job holds. The process group, one merged pipe. Weaker, as `corral probe` documents: no
// stop/continue events (a stopped job still shows `running`), and only the
// process group is terminated, not descendants that left it.
import { processGroupBackend } from "./pipe-backend.ts";
import { signalGroup } from "../runtime-quirks.ts";
import type { SupervisedProcess } from "../backend.ts";
import type { ByteSink } from "../spec.ts";
import { supervise } from "../supervise.ts";
import type { SignalTarget, SupervisedTree, SupervisedTreeEvents, TreeLaunch } from "../handle.ts";
import { TreeEvents } from "../tree-events.ts";
import { confirmed, type Receipt, receiptOfLeftovers } from "../../core/receipt.ts";

/** Stop signals: refused, as the group cannot report that its members stopped. */
const STOPS = new Set(["SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU"]);

class GroupJob implements SupervisedTree {
  readonly backend = "process-group" as const;
  pid = 0;
  child: SupervisedProcess | null = null;
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
}

/** Starts a pipe job in its own process group; rejects with SpawnError. */
export async function startGroupJob(launch: TreeLaunch): Promise<SupervisedTree> {
  const job = new GroupJob();
  const child = await supervise({
    argv: launch.argv,
    cwd: launch.cwd,
    env: launch.env,
    stdin: "ignore",
    stdout: { sink: job.sink },
    stderr: "stdout",
    graceMs: launch.graceMs,
  }, processGroupBackend);
  job.pid = child.pid;
  job.child = child;
  void child.exited.then((result) => {
    const receipt = receiptOfLeftovers(result.facts.forced, result.uncertain);
    job.events.done(result.facts, receipt);
  });
  return job;
}
