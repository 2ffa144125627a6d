// A job's end outlives the agent that saw it. A job that is done lives only
// in its agent's memory until it is reaped; an agent SIGKILLed (or
// restarted) a moment later would take the job's exit facts with it, and the
// next agent would not know the job ever ran: `jobs wait` and `jobs` would
// answer nothing about it. So each job's end is written to the state dir
// (`jobs-done/<id>.json`) as it happens and removed when the job is reaped
// or forgotten; a new agent restores these as done jobs, their output read
// back from the spill file when there is one. A clean `agent stop` removes
// them (it ended everything on purpose).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ExitFacts } from "../core/exit-facts.ts";
import type { Receipt } from "../core/receipt.ts";
import { BoundedStore } from "../output/bounded-store.ts";
import type { SupervisedTree, SupervisedTreeEvents, SupervisorName } from "../supervise/handle.ts";
import { TreeEvents } from "../supervise/tree-events.ts";
import { Job } from "./job.ts";
import type { JobMode } from "./job-info.ts";

/** What is written for one done job. */
export interface DoneJobRecord {
  readonly id: number;
  readonly name: string | null;
  readonly argv: readonly string[];
  readonly mode: JobMode;
  readonly pid: number;
  readonly backend: SupervisorName;
  readonly startedAt: number;
  readonly exit: ExitFacts;
  readonly receipt: Receipt;
  readonly bytes: number;
  readonly spill: string | null;
  readonly spillLost: { readonly from: number | null; readonly code: string; readonly message: string } | null;
  readonly headBytes: number;
  readonly maxBytes: number;
}

function doneDir(stateDir: string): string {
  return path.join(stateDir, "jobs-done");
}

function doneFile(stateDir: string, id: number): string {
  return path.join(doneDir(stateDir), `${id}.json`);
}

/** Writes a done job's end (best effort: a state dir that is gone takes nothing from the job). */
export function writeDoneJob(stateDir: string, job: Job): void {
  if (job.exit === null || job.receipt === null) return;
  const lost = job.store.spillError;
  const record: DoneJobRecord = {
    id: job.id, name: job.name, argv: job.argv, mode: job.mode, pid: job.pid, backend: job.process.backend,
    startedAt: job.startedAt, exit: job.exit, receipt: job.receipt, bytes: job.store.totalBytes, spill: job.store.spillPath,
    spillLost: lost === null ? null : { from: job.store.spillStoppedAt, code: lost.code ?? "EIO", message: lost.message },
    headBytes: job.store.headBytes, maxBytes: job.store.tailBytes,
  };
  try {
    mkdirSync(doneDir(stateDir), { recursive: true, mode: 0o700 });
    writeFileSync(doneFile(stateDir, job.id), JSON.stringify(record) + "\n", { mode: 0o600 });
  } catch {
    // the state dir is gone (socket-watch.ts deals with that)
  }
}

export function removeDoneJob(stateDir: string, id: number): void {
  try {
    rmSync(doneFile(stateDir, id), { force: true });
  } catch {
    // the state dir is gone or is no directory any more
  }
}

export function removeAllDoneJobs(stateDir: string): void {
  try {
    rmSync(doneDir(stateDir), { recursive: true, force: true });
  } catch {
    // the state dir is gone or is no directory any more
  }
}

export function readDoneJobs(stateDir: string): DoneJobRecord[] {
  let names: string[];
  try {
    names = readdirSync(doneDir(stateDir));
  } catch {
    return [];
  }
  const records: DoneJobRecord[] = [];
  for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
    try {
      records.push(JSON.parse(readFileSync(path.join(doneDir(stateDir), name), "utf8")) as DoneJobRecord);
    } catch {
      // half-written by an agent killed in the middle: nothing to restore
    }
  }
  return records.sort((a, b) => a.id - b.id);
}

/** The tree of a restored done job: it only tells its end. */
class EndedTree implements SupervisedTree {
  readonly #events = new TreeEvents();

  constructor(readonly pid: number, readonly backend: SupervisorName, exit: ExitFacts, readonly receipt: Receipt) {
    this.#events.done(exit, receipt);
  }

  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.#events.on(event, listener);
  }

  write(): void {}
  resize(): void {}
  signal(): Promise<void> {
    return Promise.reject(new Error("the job has ended"));
  }
  terminate(): Promise<Receipt> {
    return Promise.resolve(this.receipt);
  }
  pause(): void {}
  resume(): void {}
  dispose(): void {}
}

/** A done job as the agent that saw it end left it: its facts, and its output from the spill. */
export async function restoreDoneJob(record: DoneJobRecord): Promise<Job> {
  const limits = { headBytes: record.headBytes, tailBytes: record.maxBytes };
  const store = await BoundedStore.resume(
    record.spill === null ? limits : { ...limits, spillPath: record.spill, externalSpill: true, spillWrittenAhead: true },
    record.bytes,
  );
  if (record.spillLost !== null) store.externalSpillFailed(record.spillLost.code, record.spillLost.message, record.spillLost.from ?? undefined);
  const process = new EndedTree(record.pid, record.backend, record.exit, record.receipt);
  const job = new Job({ id: record.id, name: record.name, argv: record.argv, mode: record.mode, store, process, startedAt: record.startedAt });
  await job.settled;
  return job;
}
