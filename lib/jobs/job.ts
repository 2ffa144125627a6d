// One job: a command started for a person or a script, its state (running,
// stopped, done), and a bounded copy of its output that readers read by
// offset without consuming. Attached terminals and followers subscribe to
// its output; nobody needs to be attached for its state and exit facts to
// be recorded the moment they happen.
import type { BoundedStore } from "../output/bounded-store.ts";
import type { ExitFacts } from "../core/exit-facts.ts";
import { exitStatusOf } from "../runtime/signals.ts";
import type { JobMode, JobState, Receipt } from "./job-info.ts";
import type { SupervisedTree } from "../supervise/handle.ts";

/** What changed, for whoever holds the job's terminal. */
export type JobChange = "stopped" | "continued" | "done";

/** What a Job is made from. */
export interface JobParts {
  readonly id: number;
  readonly name: string | null;
  readonly argv: readonly string[];
  readonly mode: JobMode;
  readonly store: BoundedStore;
  readonly process: SupervisedTree;
  /** Gets every output chunk from the first (a terminal attaching as the job starts). */
  readonly firstOutputListener?: (bytes: Uint8Array) => void;
  /** A re-adopted job keeps the start time its first agent gave it (issue 11). */
  readonly startedAt?: number;
}

/** A job and its bounded output. */
export class Job {
  readonly id: number;
  readonly name: string | null;
  readonly argv: readonly string[];
  readonly mode: JobMode;
  readonly store: BoundedStore;
  readonly process: SupervisedTree;
  readonly startedAt: number;
  /** Resolves once the job is done and its output store is closed (spill flushed). */
  readonly settled: Promise<void>;
  state: JobState = "running";
  exit: ExitFacts | null = null;
  /** The receipt of the tree's termination when the job ended. */
  receipt: Receipt | null = null;
  /**
   * A re-adopted job's output between these offsets was lost while no agent
   * held it (the guardian's tail could not hold it); null when nothing was.
   */
  gap: { readonly from: number; readonly to: number } | null = null;
  /** Set while a client holds the job's terminal (at most one). */
  attached = false;
  #outputListeners = new Set<(bytes: Uint8Array) => void>();
  #changeListeners = new Set<(change: JobChange) => void>();

  constructor(parts: JobParts) {
    this.id = parts.id;
    this.startedAt = parts.startedAt ?? Date.now();
    this.name = parts.name;
    this.argv = parts.argv;
    this.mode = parts.mode;
    this.store = parts.store;
    this.process = parts.process;
    const proc = parts.process;
    if (parts.firstOutputListener !== undefined) this.#outputListeners.add(parts.firstOutputListener);
    proc.on("output", (bytes) => this.#onOutput(bytes));
    proc.on("stopped", () => this.#change("stopped"));
    proc.on("continued", () => this.#change("continued"));
    this.settled = new Promise((resolve) => {
      proc.on("done", (facts, receipt) => {
        this.exit = facts;
        this.receipt = receipt;
        this.#change("done");
        this.store.close().catch(() => {}).finally(resolve);
      });
    });
  }

  get pid(): number {
    return this.process.pid;
  }

  /** The exit status once done (DESIGN.md 4.1). */
  get status(): number | null {
    return this.exit === null ? null : exitStatusOf(this.exit);
  }

  /** Live output; returns the unsubscribe function. */
  onOutput(listener: (bytes: Uint8Array) => void): () => void {
    this.#outputListeners.add(listener);
    return () => this.#outputListeners.delete(listener);
  }

  /** State changes; returns the unsubscribe function. */
  onChange(listener: (change: JobChange) => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  #onOutput(bytes: Uint8Array): void {
    if (!this.store.closed && this.exit === null) {
      // The store keeps the chunk by reference for its spill; nobody modifies it.
      if (!this.store.write(bytes)) {
        this.process.pause();
        this.store.onDrain(() => this.process.resume());
      }
    }
    for (const listener of this.#outputListeners) listener(bytes);
  }

  #change(change: JobChange): void {
    if (this.state === "done") return;
    this.state = change === "stopped" ? "stopped" : change === "continued" ? "running" : "done";
    for (const listener of this.#changeListeners) listener(change);
  }
}
