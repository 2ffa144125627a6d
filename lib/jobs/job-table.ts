// The agent's table of jobs: %N numbering (the next number is one above the
// highest in use, as bash does), the current (+) and previous (-) job kept
// by recency as a shell keeps them, lookup by id, name, %+ or %-.
import { type JobInfo, jobLabel } from "./job-info.ts";
import type { JobRef } from "./job-id.ts";
import { describeRef } from "./job-id.ts";
import type { Job } from "./job.ts";
import { CorralError } from "../core/corral-error.ts";
import { removeDoneJob, writeDoneJob } from "./done-jobs.ts";

/**
 * Finished jobs kept unreaped; past this the oldest finished ones go, so a
 * script that starts jobs for ever and never reaps cannot grow the agent
 * without bound (each keeps up to its head + tail bytes).
 */
export const MAX_DONE_KEPT = 128;

/** A job id that is well formed but names no job. */
export class UnknownJobError extends CorralError {
  override readonly name = "UnknownJobError";
  constructor(message: string) {
    super("unknown_job", message);
  }
}

/** The jobs one agent holds. */
export class JobTable {
  #jobs = new Map<number, Job>();
  /** Job ids, most recent first: [0] is current (+), [1] previous (-). */
  #recency: number[] = [];
  /** Where each job's end is written as it happens, for the next agent (done-jobs.ts); null: nowhere. */
  #endsIn: string | null = null;

  /** Writes each job's end under `stateDir` from now on (the agent's table). */
  keepEndsIn(stateDir: string): void {
    this.#endsIn = stateDir;
  }

  /**
   * Numbers handed out to jobs still starting: two starts that overlap (two
   * clients, one agent) must not get the same number, or the second job
   * would replace the first in the table and the first vanish.
   */
  #reserved = new Set<number>();
  /**
   * Names of jobs still starting, by their reserved number: two `run --bg
   * --name X` that overlap must not both pass the name check while neither
   * job is in the table yet.
   */
  #reservedNames = new Map<number, string>();

  /** The number the next job gets. */
  nextId(): number {
    let max = 0;
    for (const id of this.#jobs.keys()) max = Math.max(max, id);
    for (const id of this.#reserved) max = Math.max(max, id);
    return max + 1;
  }

  /** nextId(), held for the job starting until add() or release(). */
  reserveId(name: string | null = null): number {
    const id = this.nextId();
    this.#reserved.add(id);
    if (name !== null) this.#reservedNames.set(id, name);
    return id;
  }

  /** A number from reserveId() whose job did not start. */
  release(id: number): void {
    this.#reserved.delete(id);
    this.#reservedNames.delete(id);
  }

  /** The job holding `name`, if any: a name in use is refused before anything starts. */
  nameInUse(name: string): Job | undefined {
    for (const job of this.#jobs.values()) if (job.name === name) return job;
    return undefined;
  }

  /** The number of a job holding `name` or still starting under it; undefined: the name is free. */
  nameHolder(name: string): number | undefined {
    const job = this.nameInUse(name);
    if (job !== undefined) return job.id;
    for (const [id, reserved] of this.#reservedNames) if (reserved === name) return id;
    return undefined;
  }

  add(job: Job): void {
    this.#reserved.delete(job.id);
    this.#reservedNames.delete(job.id);
    this.#jobs.set(job.id, job);
    this.touch(job);
    job.onChange((change) => {
      if (change === "stopped") this.touch(job);
      if (change === "done" && this.#endsIn !== null) writeDoneJob(this.#endsIn, job);
      if (change === "done") this.#trimDone();
    });
  }

  /** Makes `job` the current one (started, stopped, brought to fg or bg). */
  touch(job: Job): void {
    this.#recency = [job.id, ...this.#recency.filter((id) => id !== job.id)];
  }

  /** The job a ref names; no ref means the current job. Throws UnknownJobError. */
  resolve(ref: JobRef | undefined): Job {
    const kind = ref?.kind ?? "current";
    let job: Job | undefined;
    if (ref?.kind === "number") job = this.#jobs.get(ref.n);
    else if (ref?.kind === "name") job = this.nameInUse(ref.name);
    else {
      const at = kind === "current" ? 0 : 1;
      const id = this.#recency[at];
      job = id === undefined ? undefined : this.#jobs.get(id);
    }
    if (job !== undefined) return job;
    if (ref === undefined || ref.kind === "current") throw new UnknownJobError("no current job; corral jobs lists them");
    throw new UnknownJobError(`no job ${describeRef(ref)}; corral jobs lists them`);
  }

  /** Jobs in id order. */
  all(): Job[] {
    return [...this.#jobs.values()].sort((a, b) => a.id - b.id);
  }

  /** Forgets a finished job (reap). */
  retire(job: Job): void {
    this.#jobs.delete(job.id);
    this.#recency = this.#recency.filter((id) => id !== job.id);
    if (this.#endsIn !== null) removeDoneJob(this.#endsIn, job.id);
  }

  /** Jobs whose process still runs (or is stopped). */
  liveCount(): number {
    let n = 0;
    for (const job of this.#jobs.values()) if (job.state !== "done") n++;
    return n;
  }

  get size(): number {
    return this.#jobs.size;
  }

  #trimDone(): void {
    const done = this.all().filter((j) => j.state === "done");
    for (const job of done.slice(0, Math.max(0, done.length - MAX_DONE_KEPT))) this.retire(job);
  }

  /** "+" for the current job, "-" for the previous one. */
  mark(job: Job): "+" | "-" | null {
    if (this.#recency[0] === job.id) return "+";
    if (this.#recency[1] === job.id) return "-";
    return null;
  }

  info(job: Job): JobInfo {
    return {
      id: jobLabel(job.id),
      number: job.id,
      name: job.name,
      state: job.state,
      mark: this.mark(job),
      pid: job.pid,
      argv: job.argv,
      mode: job.mode,
      exit: job.exit,
      status: job.status,
      bytes: job.store.totalBytes,
      spill: job.store.spillPath,
      startedAt: job.startedAt,
      backend: job.process.backend,
      attached: job.attached,
      ...(job.gap !== null ? { gap: { from: job.gap.from, to: job.gap.to, bytes: job.gap.to - job.gap.from } } : {}),
      ...(job.store.spillError !== null ? { spillLost: { from: job.store.spillStoppedAt, error: job.store.spillError.message } } : {}),
    };
  }
}
