// Taking over a job a previous agent started (issue 11): same id, name,
// offsets and spill file. The stream continues at the guardian's position.
// The spill holds what the old agent wrote of it; the guardian's raw tail
// holds the last bytes read from the child, so the spill is completed from
// the tail when the two meet (byte-exact), and when they do not (more was
// written while unowned than the tail holds) the gap is exact and reported:
// its offsets are in the job's `gap`, and the spill stops there rather than
// hold bytes at the wrong offsets. A spill the guardian writes itself
// (guardian protocol 5) needs none of this: it is complete whoever died, up
// to where the guardian says it stopped (a full disk).
import { statSync } from "node:fs";
import process from "node:process";
import { BoundedStore } from "../../../output/bounded-store.ts";
import { type GuardianRecord, writeRecord, removeRecord } from "../../../supervise/guardian-records.ts";
import { identityOf } from "../../../proc/identity.ts";
import { adoptGuardianJob, errnoName } from "../../../supervise/adoption.ts";
import { Job } from "../../../jobs/job.ts";
import { restoreDoneJob, writeDoneJob } from "../../../jobs/done-jobs.ts";
import { describeOrphanedTree, terminateOrphanedTree } from "../../../supervise/orphaned-tree.ts";
import { exitFactsOf } from "../../../supervise/adoption.ts";
import { uncertain } from "../../../supervise/receipts.ts";
import type { Receipt } from "../../../core/receipt.ts";
import type { SupervisedTree } from "../../../supervise/handle.ts";
import type { AgentContext } from "../agent-context.ts";
import { LostGuardian, reconnect } from "./reconnect.ts";

/** Re-adopts one job; returns its number. Throws LostGuardian with the reason. */
export async function adoptJob(ctx: AgentContext, record: GuardianRecord): Promise<number> {
  const facts = record.jobFacts!;
  const id = record.job as number;
  const child = record.child;
  if (child === null) throw new LostGuardian("its record names no child");
  let process_: SupervisedTree | undefined;
  const launch = { mode: facts.mode, graceMs: facts.graceMs, stateDir: ctx.stateDir };
  let store: BoundedStore | undefined;
  const byGuardian = facts.spillByGuardian === true && facts.spill !== null;
  const spillWatch = byGuardian
    ? { path: facts.spill!, onStopped: (at: number, code: string, message: string) => store?.externalSpillFailed(code, `${message} (the spill stops at byte ${at})`, at) }
    : undefined;
  const found = await reconnect(record, (guardian) => (process_ = adoptGuardianJob(guardian, child, launch, facts.startedAt, spillWatch)));
  // Pipe jobs merge stderr into stdout; a PTY job's output is stream 1.
  const stream = found.adopt.streams.find((s) => s.stream === 1);
  const backlog = found.backlog.get(1) ?? new Uint8Array(0);
  const position = stream?.position ?? backlog.length;
  const tailStart = position - backlog.length;
  const spilled = facts.spill === null ? null : spillSize(facts.spill);
  let gap: { from: number; to: number } | null = null;
  const limits = { headBytes: facts.headBytes, tailBytes: facts.maxBytes };
  if (byGuardian) {
    store = await BoundedStore.resume({ ...limits, spillPath: facts.spill!, externalSpill: true, spillWrittenAhead: true }, tailStart);
    store.write(backlog);
    const said = found.welcome.jobSpill;
    if (said !== undefined && said.errno !== 0) {
      store.externalSpillFailed(errnoName(said.errno), `the guardian could not write more (the spill stops at byte ${said.spilled})`, said.spilled);
    }
  } else if (facts.spill !== null && spilled !== null && spilled >= tailStart && spilled <= position) {
    store = await BoundedStore.resume({ ...limits, spillPath: facts.spill }, spilled);
    store.write(backlog.subarray(spilled - tailStart));
  } else {
    // No spill, or the tail does not reach back to its end: the stream goes on from the tail in memory.
    const from = spilled ?? 0;
    if (tailStart > from) gap = { from, to: tailStart };
    store = await BoundedStore.resume(limits, tailStart);
    store.write(backlog);
  }
  const job = new Job({ id, name: facts.name, argv: record.argv, mode: facts.mode, store, process: process_!, startedAt: facts.startedAt });
  if (found.adopt.stopped) job.state = "stopped";
  job.gap = gap;
  ctx.jobs.add(job);
  writeRecord(ctx.stateDir, { ...record, owner: identityOf(process.pid) ?? record.owner, recordedAt: Date.now() });
  void job.settled.then(() => removeRecord(ctx.stateDir, record.guardian.pid));
  const lostWhy = gap === null ? "" : `; bytes ${gap.from}..${gap.to} (${gap.to - gap.from}) were lost while no agent held it${facts.spill !== null ? ", the spill stops at " + gap.from : ""}`;
  ctx.log(`job %${id} re-adopted: pid ${child.pid}, offset ${position}${lostWhy}`);
  return id;
}

/**
 * A job whose guardian reported the exit and was gone before a new agent
 * came (the old agent died between the exit and the sweep): the job comes
 * back as it ended, from the exit written in its record; what is left of
 * its tree is ended here, and the receipt says so.
 */
export async function restoreEndedJob(ctx: AgentContext, record: GuardianRecord): Promise<number> {
  const facts = record.jobFacts!;
  const exited = record.exited!;
  const tree = record.child === null ? null : await terminateOrphanedTree(record.child, facts.graceMs);
  const receipt: Receipt = tree === null || (tree.left.length === 0 && !tree.procUnreadable)
    ? { status: "confirmed", forced: tree?.forced ?? false, reason: null }
    : uncertain(`the guardian was gone; ${describeOrphanedTree(tree)}`, tree.forced);
  const exit = exitFactsOf(exited, { timedOut: false, durationMs: exited.durationMs, outputComplete: false });
  const job = await restoreDoneJob({
    id: record.job!, name: facts.name, argv: record.argv, mode: facts.mode, pid: record.child?.pid ?? 0, backend: "guardian",
    startedAt: facts.startedAt, exit, receipt, bytes: facts.spill === null ? 0 : spillSize(facts.spill) ?? 0, spill: facts.spill,
    spillLost: spillLostOf(record), headBytes: facts.headBytes, maxBytes: facts.maxBytes,
  });
  ctx.jobs.add(job);
  writeDoneJob(ctx.stateDir, job);
  removeRecord(ctx.stateDir, record.guardian.pid);
  ctx.log(`job %${job.id} restored as it ended: its guardian had exited after reporting the exit`);
  return job.id;
}

/** Where the guardian said the spill stopped (a full disk), as a done job keeps it. */
function spillLostOf(record: GuardianRecord): { from: number; code: string; message: string } | null {
  const stopped = record.spillStopped;
  return stopped === undefined ? null : { from: stopped.from, code: stopped.code, message: stopped.message };
}

function spillSize(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}
