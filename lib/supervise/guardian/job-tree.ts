// A tree that sweeps itself, under its own guardian (native/): what a job
// holds (tree.ts starts or adopts it). A PTY through the job shim, or one
// merged pipe. The guardian gives exact stop/continue events, drains a PTY
// before reporting the exit, and terminates the whole tree by census with a
// receipt; it lingers a while without its owner, then cleans up by itself.
import type { Guardian } from "./client.ts";
import { errnoName, exitFactsOf } from "./facts.ts";
import type { ExitedEvent } from "./protocol.ts";
import type { ExitFacts } from "../../core/exit-facts.ts";
import { afterGuardianLoss as afterLoss } from "./guardian-loss.ts";
import { TreeEvents } from "../tree-events.ts";
import { markExited, markSpillStopped, removeRecord } from "../guardian-records.ts";
import { JOB_SPILL_FAULT } from "./protocol.ts";
import type { SpillStopped } from "../adapter.ts";
import { statSync } from "node:fs";
import type { Receipt } from "../../core/receipt.ts";
import type { SignalTarget, SupervisedTree, SupervisedTreeEvents, TreeLaunch } from "../handle.ts";
import { receiptOfCensus, uncertain } from "../receipts.ts";
import { UNANSWERED_MARGIN_MS } from "./pipe-loss.ts";

/**
 * How long a guardian keeps its tree after losing the agent: long enough for
 * `corral reap` to find it and collect a receipt, short enough that nothing
 * outlives a crashed agent for long.
 */
export const JOB_LINGER_MS = 60_000;

/** A job under its guardian (tree.ts starts or adopts it). */
export class GuardianJob implements SupervisedTree {
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

  /** Nothing to release: the guardian exits by itself once it swept the tree (wireJobEvents). */
  dispose(): void {}
}

/**
 * The guardian's spill of this job stopped (a full disk): it writes nothing
 * more, so the file's size is where the spill ends.
 */
export function watchJobSpill(guardian: Guardian, onSpillStopped: SpillStopped, spillPath: string, stateDir: string): void {
  guardian.on("fault", (f) => {
    if (!f.what.startsWith(JOB_SPILL_FAULT)) return;
    const from = fileSize(spillPath);
    const code = errnoName(f.errno);
    // Written down too: should this agent die before the job's end is kept, the next one restores it from the record.
    markSpillStopped(stateDir, guardian.pid, { from, code, message: f.message });
    onSpillStopped(from, code, f.message);
  });
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Wires the guardian's events to the job: the exit, then the sweep and `done`; a lost guardian, its loss. */
export function wireJobEvents(job: GuardianJob, guardian: Guardian, launch: Pick<TreeLaunch, "mode" | "graceMs" | "stateDir">, startedAt: number): void {
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
