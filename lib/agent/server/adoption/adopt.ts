// A new agent takes over what a previous one left running (issue 11,
// DESIGN.md 4.9): after a crash, `agent restart` or an upgrade, it reads the
// records in the state dir, reconnects to each adoptable guardian whose
// agent is gone, and rebuilds sessions (same id, name, size, position; the
// screen replayed from the raw tail) and jobs (same id, offsets, spill).
// A guardian that does not answer is never silently dropped: its record is
// kept, marked lost with the reason, for `reap` and `agent status`. A
// session whose guardian is gone ended while no agent held it: it is listed
// as ended, its end unknown with the reason (session-restore.ts), and so is
// every session whose end a previous agent wrote down.
import process from "node:process";
import { type GuardianRecord, readRecords, removeRecord, writeRecord } from "../../../supervise/guardian-records.ts";
import { identityOf, stillRuns } from "../../../proc/identity.ts";
import { adoptedGuardianHandle } from "../../../supervise/adoption.ts";
import type { SupervisedTree } from "../../../supervise/handle.ts";
import type { AgentContext } from "../agent-context.ts";
import { adoptPtySession } from "../pty-sessions.ts";
import { forgetAtExit } from "../session-record.ts";
import { LostGuardian, reconnect } from "./reconnect.ts";
import { adoptJob, restoreEndedJob } from "./job-adopt.ts";
import { readDoneJobs, restoreDoneJob } from "../../../jobs/done-jobs.ts";
import { readSessionEnds, type SessionEndRecord } from "../session-ends.ts";
import { endUnownedSession, restoreEndedSession, retireShadowedNames } from "./session-restore.ts";

/** What a new agent found: ids re-adopted, and what was lost with why. */
export interface AdoptionReport {
  readonly sessions: string[];
  readonly jobs: number[];
  readonly lost: LostItem[];
}

/** A session or job a previous agent held that could not be re-adopted. */
export interface LostItem {
  readonly kind: "session" | "job";
  readonly id: string;
  readonly name: string | null;
  readonly argv: readonly string[];
  readonly reason: string;
}

/** Re-adopts every adoptable guardian whose agent is gone; never throws. */
export async function adoptLeftGuardians(ctx: AgentContext): Promise<AdoptionReport> {
  const report: AdoptionReport = { sessions: [], jobs: [], lost: [] };
  // Jobs a previous agent saw end come back as they ended (lib/jobs/done-jobs.ts).
  for (const record of readDoneJobs(ctx.stateDir)) {
    if (ctx.jobs.all().some((j) => j.id === record.id)) continue;
    try {
      ctx.jobs.add(await restoreDoneJob(record));
      ctx.log(`job %${record.id} restored as it ended (exit facts kept by a previous agent)`);
    } catch (error) {
      ctx.log(`job %${record.id} could not be restored: ${(error as Error).message}`);
    }
  }
  const records = readRecords(ctx.stateDir).records
    .filter((r) => r.adoptable === true && r.lost === undefined)
    .filter((r) => r.owner.pid !== process.pid && !stillRuns(r.owner));
  // Sessions a previous agent saw end come back as they ended (session-ends.ts). One whose end
  // was written before its guardian's record went (the agent died in between): a guardian still
  // there is taken over as usual (it tells the same end, and ends what is left); a gone one's
  // record goes, and the written end stands.
  const liveGuardianOf = new Set(records.filter((r) => r.session !== undefined && stillRuns(r.guardian)).map((r) => r.session!.id));
  const ends = readSessionEnds(ctx.stateDir)
    .filter((e) => !ctx.registry.all().some((s) => s.id === e.id) && !liveGuardianOf.has(e.id))
    .filter((e) => e.exit !== null || (e.heldBy !== undefined && e.heldBy.pid !== process.pid && !stillRuns(e.heldBy)));
  const endedIds = new Set(ends.map((e) => e.id));
  for (const record of records) {
    if (record.session !== undefined && endedIds.has(record.session.id)) removeRecord(ctx.stateDir, record.guardian.pid);
  }
  // Sessions first, in id order (the ended ones among them), then jobs: lists come back in the order they had.
  const work: Work[] = [
    ...ends.map((end): Work => ({ at: Number(end.id) || 0, end })),
    ...records.filter((r) => r.session === undefined || !endedIds.has(r.session.id)).map((record): Work => ({ at: order(record), record })),
  ].sort((a, b) => a.at - b.at);
  if (work.length > 0) ctx.log(`re-adopting what a previous agent left: ${work.length} session(s) and job(s)`);
  for (const item of work) {
    if (item.end !== undefined) {
      try {
        await restoreEndedSession(ctx, item.end);
        report.sessions.push(item.end.id);
      } catch (error) {
        ctx.log(`session ${item.end.id} could not be restored as it ended: ${(error as Error).message}`);
      }
      continue;
    }
    const record = item.record!;
    // Its end was written down before its record could go (the agent died in between): the end stands.
    if (record.session === undefined && record.job !== null && ctx.jobs.all().some((j) => j.id === record.job)) {
      removeRecord(ctx.stateDir, record.guardian.pid);
      continue;
    }
    try {
      if (record.session !== undefined) report.sessions.push(await adoptSession(ctx, record));
      else if (record.jobFacts !== undefined && record.job !== null) report.jobs.push(await adoptJob(ctx, record));
    } catch (error) {
      if (error instanceof LostGuardian && record.exited !== undefined && record.jobFacts !== undefined && record.job !== null) {
        report.jobs.push(await restoreEndedJob(ctx, record));
        continue;
      }
      // A session whose guardian is gone ended while no agent held it: listed as ended, its end unknown with why.
      if (error instanceof LostGuardian && record.session !== undefined && !stillRuns(record.guardian)) {
        try {
          report.sessions.push(await endUnownedSession(ctx, record, error.message));
          continue;
        } catch (failed) {
          ctx.log(`session ${record.session.id} could not be listed as ended: ${(failed as Error).message}`);
        }
      }
      const reason = error instanceof LostGuardian ? error.message : `re-adopting failed: ${(error as Error).message}`;
      writeRecord(ctx.stateDir, { ...record, lost: reason });
      report.lost.push(lostItem(record, reason));
      ctx.log(`${describe(record)} lost: ${reason}`);
    }
  }
  retireShadowedNames(ctx);
  return report;
}

/** One step of adoption: a guardian's record, or a session's written end. */
interface Work {
  readonly at: number;
  readonly record?: GuardianRecord;
  readonly end?: SessionEndRecord;
}

/** Records a previous agent left that this agent found lost (kept until `reap`). */
export function lostRecords(stateDir: string): LostItem[] {
  return readRecords(stateDir).records.filter((r) => r.lost !== undefined).map((r) => lostItem(r, r.lost as string));
}

function lostItem(record: GuardianRecord, reason: string): LostItem {
  return record.session !== undefined
    ? { kind: "session", id: record.session.id, name: record.session.name, argv: record.argv, reason }
    : { kind: "job", id: `%${record.job ?? "?"}`, name: record.jobFacts?.name ?? null, argv: record.argv, reason };
}

function order(record: GuardianRecord): number {
  if (record.session !== undefined) return Number(record.session.id) || 0;
  return 1_000_000 + (record.job ?? 0);
}

function describe(record: GuardianRecord): string {
  return record.session !== undefined ? `session ${record.session.id}` : `job %${record.job}`;
}

async function adoptSession(ctx: AgentContext, record: GuardianRecord): Promise<string> {
  const facts = record.session!;
  const child = record.child;
  if (child === null) throw new LostGuardian("its record names no child");
  let handle: SupervisedTree | undefined;
  const link = { guardianPid: record.guardian.pid, socket: record.socket, token: record.token, child };
  const found = await reconnect(record, (guardian) => (handle = adoptedGuardianHandle(guardian, link)));
  const backlog = found.backlog.get(1) ?? new Uint8Array(0);
  const position = found.adopt.streams.find((s) => s.stream === 1)?.position ?? backlog.length;
  const session = await adoptPtySession(handle!, {
    argv: record.argv,
    cols: found.adopt.cols,
    rows: found.adopt.rows,
    scrollback: facts.scrollback,
    term: facts.term,
    createdAt: facts.createdAt,
    backlog,
    position,
    ...(facts.shell !== undefined ? { shell: facts.shell } : {}),
  });
  const entry = ctx.registry.adopt(session, facts.id, facts.name, facts.scrollback);
  writeRecord(ctx.stateDir, { ...record, owner: identityOf(process.pid) ?? record.owner, recordedAt: Date.now() });
  forgetAtExit(ctx.stateDir, entry, record.guardian.pid, facts.term);
  const dropped = position - backlog.length;
  ctx.log(`session ${facts.id} re-adopted: pid ${child.pid}, position ${position}${dropped > 0 ? `, screen rebuilt from the last ${backlog.length} bytes (approximate until a redraw)` : ""}`);
  return facts.id;
}
