// A tree that sweeps itself, under its own guardian (native/): what a job
// holds. A PTY through the job shim, or one merged pipe. The guardian gives exact stop/continue events,
// drains a PTY before reporting the exit, and terminates the whole tree by
// census with a receipt. Each guardian is recorded in the state dir so that
// `reap` can find it if this agent dies; it lingers a while without its
// owner, then cleans up by itself.
import process from "node:process";
import { GuardianError, type Guardian } from "./client.ts";
import { spawnGuardian } from "./launch.ts";
import { exitFactsOf } from "./facts.ts";
import type { ExitedEvent, StartedEvent } from "./protocol.ts";
import type { ExitFacts } from "../../core/exit-facts.ts";
import { afterGuardianLoss as afterLoss } from "./guardian-loss.ts";
import { SpawnError } from "../spawn-error.ts";
import { TreeEvents } from "../tree-events.ts";
import { type JobFacts, markExited, removeRecord, writeRecord } from "../guardian-records.ts";
import { JOB_SPILL_FAULT } from "./protocol.ts";
import type { SpillStopped } from "../start.ts";
import { statSync } from "node:fs";
import { constants } from "node:os";
import type { Receipt } from "../../core/receipt.ts";
import type { SignalTarget, SupervisedTree, SupervisedTreeEvents, TreeLaunch } from "../handle.ts";
import { locateJobShim } from "./job-shim.ts";
import { identityOf } from "../../proc/identity.ts";
import { receiptOfCensus, uncertain } from "../receipts.ts";

/**
 * How long a guardian keeps its tree after losing the agent: long enough for
 * `corral reap` to find it and collect a receipt, short enough that nothing
 * outlives a crashed agent for long.
 */
export const JOB_LINGER_MS = 60_000;

/** Beyond its grace, a terminate has the guardian's SIGKILL wait (2 s) and this much more to answer. */
const UNANSWERED_MARGIN_MS = 10_000;

class GuardianJob implements SupervisedTree {
  readonly backend = "guardian" as const;
  pid = 0;
  readonly events = new TreeEvents();

  /** `graceMs`: the launch's, for a terminate that names none. */
  constructor(readonly guardian: Guardian, readonly graceMs: number) {
    guardian.on("output", (_stream, bytes) => this.events.output(bytes));
  }

  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.events.on(event, listener);
  }

  write(bytes: Uint8Array | string): void {
    this.guardian.write(bytes);
  }

  resize(cols: number, rows: number): void {
    this.guardian.resize(rows, cols).catch(() => {});
  }

  /** Rejects when the guardian could not give it (gone, refused). */
  async signal(signal: string, target: SignalTarget): Promise<void> {
    await this.guardian.signal(signal, target);
  }

  /** The first receipt that saw the tree gone. */
  #gone: Receipt | undefined;

  async terminate(graceMs = this.graceMs, firstSignal: NodeJS.Signals = "SIGTERM"): Promise<Receipt> {
    // A tree seen gone stays gone: a later terminate is answered with that
    // receipt, as the guardian has exited since and could not be asked.
    const gone = this.#gone ?? this.events.swept;
    if (gone?.status === "confirmed") return gone;
    // A guardian that does not answer within the grace plus a margin is
    // killed: its connection closes and the loss path (afterLoss) cleans up.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.guardian.process?.kill("SIGKILL");
        reject(new Error(`no receipt within ${graceMs + UNANSWERED_MARGIN_MS} ms; the guardian was killed`));
      }, graceMs + UNANSWERED_MARGIN_MS);
    });
    try {
      const receipt = receiptOfCensus(await Promise.race([this.guardian.terminate(graceMs, firstSignal), stuck]));
      if (receipt.status === "confirmed") this.#gone = receipt;
      return receipt;
    } catch (error) {
      return uncertain(`the guardian did not answer: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  pause(): void {
    this.guardian.pause();
  }

  resume(): void {
    this.guardian.resume();
  }

  /** Nothing to release: the guardian exits by itself once it swept the tree (wireEvents). */
  dispose(): void {}
}

/**
 * Starts `launch` under a new guardian; rejects with SpawnError when the
 * program cannot start. With `facts`, the guardian is adoptable: it outlives
 * this agent and a new one takes the job over (issue 11).
 */
export async function startGuardianJob(launch: TreeLaunch, jobId: number, binary: string, facts?: JobFacts, onSpillStopped?: SpillStopped): Promise<SupervisedTree> {
  const shim = launch.mode === "pty" ? locateJobShim(binary) : null;
  const startedAt = performance.now();
  const guardian = spawnGuardian({
    argv: shim === null ? launch.argv : [shim, ...launch.argv],
    mode: launch.mode,
    cwd: launch.cwd,
    stdin: launch.mode === "pipe" ? "null" : "pipe",
    stdout: "pipe",
    stderr: launch.mode === "pipe" ? "stdout" : "pipe",
    rows: launch.rows,
    cols: launch.cols,
    graceMs: launch.graceMs,
    lingerMs: JOB_LINGER_MS,
    ...(facts !== undefined ? { adoptable: true } : {}),
    ...(facts !== undefined && launch.orphanWaitMs !== undefined ? { orphanWaitMs: launch.orphanWaitMs } : {}),
    ...(facts?.spillByGuardian === true && facts.spill !== null ? { jobSpill: facts.spill } : {}),
  }, { stateDir: launch.stateDir, env: launch.env, binary });
  const job = new GuardianJob(guardian, launch.graceMs);
  if (onSpillStopped !== undefined && facts?.spillByGuardian === true && facts.spill !== null) watchJobSpill(guardian, onSpillStopped, facts.spill);
  wireEvents(job, guardian, launch, startedAt); // before any await: no event can slip by
  let child;
  try {
    child = await guardian.started;
  } catch (error) {
    await guardian.shutdown(0).catch(() => {});
    guardian.detach();
    await guardian.processExit;
    if (error instanceof GuardianError && error.code === "spawn-failed") {
      throw new SpawnError("spawn-failed", `${launch.argv[0]}: ${error.message}`);
    }
    throw new SpawnError("spawn-failed", `cannot start a guardian for ${launch.argv[0]}: ${(error as Error).message}`);
  }
  job.pid = child.pid;
  const guardianId = identityOf(guardian.pid);
  const owner = identityOf(process.pid);
  if (guardianId !== undefined && owner !== undefined) {
    writeRecord(launch.stateDir, {
      guardian: guardianId,
      owner,
      child,
      socket: guardian.reconnectPath,
      token: guardian.token,
      argv: launch.argv,
      job: jobId,
      recordedAt: Date.now(),
      ...(facts !== undefined ? { adoptable: true, jobFacts: facts } : {}),
    });
  }
  // The record goes once the job's end is known (wireEvents' finish), never merely because the
  // guardian is gone: an agent SIGKILLed while it ends a lost guardian's tree would leave the
  // next one neither the record nor the end, and the job would vanish unreported.
  void guardian.processExit?.then(() => {
    if (job.events.swept !== undefined) removeRecord(launch.stateDir, guardian.pid);
  });
  return job;
}

/**
 * Takes over a job whose guardian a previous agent started (already
 * connected, not yet read from): the process side of a re-adopted job.
 * Output after the guardian's backlog is held until the Job listens.
 */
export function adoptGuardianJob(
  guardian: Guardian, child: StartedEvent, launch: Pick<TreeLaunch, "mode" | "graceMs" | "stateDir">, startedAt: number,
  spill?: { readonly path: string; readonly onStopped: SpillStopped },
): SupervisedTree {
  const job = new GuardianJob(guardian, launch.graceMs);
  if (spill !== undefined) watchJobSpill(guardian, spill.onStopped, spill.path);
  job.pid = child.pid;
  wireEvents(job, guardian, launch, performance.now() - (Date.now() - startedAt));
  return job;
}

/**
 * The guardian's spill of this job stopped (a full disk): it writes nothing
 * more, so the file's size is where the spill ends.
 */
function watchJobSpill(guardian: Guardian, onSpillStopped: SpillStopped, spillPath: string): void {
  guardian.on("fault", (f) => {
    if (f.what.startsWith(JOB_SPILL_FAULT)) onSpillStopped(fileSize(spillPath), errnoName(f.errno), f.message);
  });
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** "ENOSPC" for 28: the name a SpillError carries. */
export function errnoName(errno: number): string {
  for (const [name, value] of Object.entries(constants.errno)) if (value === errno) return name;
  return `errno ${errno}`;
}

function wireEvents(job: GuardianJob, guardian: Guardian, launch: Pick<TreeLaunch, "mode" | "graceMs" | "stateDir">, startedAt: number): void {
  let eof = launch.mode === "pty";
  let ended = false;
  let exitSeen = false;
  let faulted = false;
  guardian.on("eof", () => (eof = true));
  // A stream's read failed in the guardian (issue 15): its EOF does not make the output complete.
  guardian.on("fault", (f) => (faulted ||= f.stream !== 0));
  guardian.on("stopped", (signal) => job.events.stopped(signal));
  guardian.on("continued", () => job.events.continued());
  const finish = (facts: ExitFacts, receipt: Receipt) => {
    if (ended) return;
    ended = true;
    // The end first (the job table writes it down, lib/jobs/done-jobs.ts), then the record goes:
    // the tree is accounted for, even if this agent exits before the guardian does.
    job.events.done(facts, receipt);
    removeRecord(launch.stateDir, guardian.pid);
  };
  guardian.on("exited", (exited: ExitedEvent) => {
    exitSeen = true;
    const durationMs = Math.round(performance.now() - startedAt);
    markExited(launch.stateDir, guardian.pid, { ...exited, durationMs });
    // The rest of the tree goes with the job (DESIGN.md 4.2), then the guardian exits.
    void guardian.shutdown(launch.graceMs).then(
      (census) => {
        const receipt = receiptOfCensus(census);
        finish(exitFactsOf(exited, { timedOut: false, durationMs, outputComplete: eof && !faulted, receipt: census }), receipt);
      },
      () => {
        // The exit is known, but the guardian died before it cleaned up the tree.
        void afterLoss(guardian, launch.graceMs).then(({ loss, receipt, forced }) => {
          const facts = exitFactsOf(exited, { timedOut: false, durationMs, outputComplete: false });
          finish({ ...facts, forced, supervisorLost: loss }, receipt);
        });
      },
    );
  });
  guardian.on("close", () => {
    if (ended || exitSeen) return;
    const durationMs = Math.round(performance.now() - startedAt);
    void afterLoss(guardian, launch.graceMs).then(({ loss, receipt, forced }) => {
      const facts: ExitFacts = { code: null, signal: null, timedOut: false, forced, durationMs, outputComplete: false, supervisorLost: loss };
      finish(facts, receipt);
    });
  });
}
