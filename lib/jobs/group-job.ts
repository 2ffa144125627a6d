// A background job without a guardian (none built, or not Linux): lib/supervise's
// process group, one merged pipe. Weaker, as `corral probe` documents: no
// stop/continue events (a stopped job still shows `running`), and only the
// process group is terminated, not descendants that left it.
import { processGroupBackend } from "../supervise/process-group/pipe-backend.ts";
import { signalGroup } from "../supervise/runtime-quirks.ts";
import type { SupervisedProcess } from "../supervise/backend.ts";
import type { ByteSink } from "../supervise/spec.ts";
import { supervise } from "../supervise/supervise.ts";
import type { Receipt } from "./job-info.ts";
import type { JobLaunch, JobProcess, JobProcessEvents } from "./job-process.ts";
import { receiptOfLeftovers } from "../core/receipt.ts";

type Listeners = { [K in keyof JobProcessEvents]: JobProcessEvents[K][] };

class GroupJob implements JobProcess {
  readonly backend = "process-group" as const;
  pid = 0;
  child: SupervisedProcess | null = null;
  #listeners: Listeners = { output: [], stopped: [], continued: [], done: [] };
  #paused = false;
  #drain: (() => void)[] = [];

  on<K extends keyof JobProcessEvents>(event: K, listener: JobProcessEvents[K]): void {
    this.#listeners[event].push(listener);
  }

  emit<K extends keyof JobProcessEvents>(event: K, ...args: Parameters<JobProcessEvents[K]>): void {
    for (const listener of this.#listeners[event]) (listener as (...a: unknown[]) => void)(...args);
  }

  /** Where the child's pipe writes: false asks the pipe to pause while the store catches up. */
  readonly sink: ByteSink = {
    write: (chunk) => {
      this.emit("output", chunk);
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

  continueAll(): Promise<void> {
    signalGroup(this.pid, "SIGCONT");
    return Promise.resolve();
  }

  /** Refused: without stop events nobody would learn that it stopped. */
  stopAll(): Promise<void> {
    return Promise.reject(new Error("stopping needs the guardian's stop events"));
  }

  async terminate(graceMs: number, firstSignal: NodeJS.Signals = "SIGTERM"): Promise<Receipt> {
    const child = this.child;
    if (child === null) return { status: "confirmed", forced: false, reason: null };
    return await child.terminate({ graceMs, signal: firstSignal });
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    this.#paused = false;
    for (const listener of this.#drain.splice(0)) listener();
  }
}

/** Starts a pipe job in its own process group; rejects with SpawnError. */
export async function startGroupJob(launch: JobLaunch): Promise<JobProcess> {
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
    job.emit("done", result.facts, receipt);
  });
  return job;
}
