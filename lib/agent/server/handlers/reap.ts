// `reap`: retires finished jobs and exited sessions, each as its common
// object (job, session) with a receipt; with `all`, first terminates every
// job and session still running (jobs through the guardian's census).
// Idempotent: a second reap finds nothing.
import type { AgentContext } from "../agent-context.ts";
import type { Job } from "../../../jobs/job.ts";
import { jobSettled } from "../../../jobs/job-wait.ts";
import { confirmed, uncertain } from "../../../jobs/receipts.ts";
import { stillRuns, identityOf } from "../../../jobs/proc-identity.ts";
import type { ReapedJob, ReapedSession, ReapRequest, ReplyBodies } from "../../protocol/messages.ts";
import type { Receipt } from "../../../jobs/job-info.ts";
import type { SessionEntry } from "../session-registry.ts";

/** Extra time over the grace for a terminated job's exit facts to arrive. */
const SETTLE_MS = 10_000;

/** Reaps; replies with one entry per job or session retired. */
export async function handleReap(ctx: AgentContext, request: ReapRequest): Promise<ReplyBodies["reap"]> {
  const graceMs = request.graceMs ?? ctx.defaults.closeGraceMs;
  const all = request.all === true;
  const jobs = await Promise.all(ctx.jobs.all().map((job) => reapJob(ctx, job, all, graceMs)));
  const sessions = await Promise.all(ctx.registry.all().map((entry) => reapSession(ctx, entry, all, graceMs)));
  return {
    jobs: jobs.filter((j): j is ReapedJob => j !== null),
    sessions: sessions.filter((s): s is ReapedSession => s !== null),
  };
}

async function reapJob(ctx: AgentContext, job: Job, all: boolean, graceMs: number): Promise<ReapedJob | null> {
  let receipt = job.receipt;
  let terminated = false;
  if (job.state !== "done") {
    if (!all) return null;
    terminated = true;
    receipt = await job.process.terminate(graceMs);
    if (!await jobSettled(job, graceMs + SETTLE_MS)) {
      receipt = uncertain(`%${job.id} was signalled but its exit was not reported within ${graceMs + SETTLE_MS} ms`);
      return { ...ctx.jobs.info(job), terminated, receipt };
    }
  } else {
    await jobSettled(job, SETTLE_MS);
  }
  // The job object as it was last listed (its mark included), taken before it leaves the table.
  const info = ctx.jobs.info(job);
  ctx.jobs.retire(job);
  return { ...info, terminated, receipt: receipt ?? confirmed() };
}

async function reapSession(ctx: AgentContext, entry: SessionEntry, all: boolean, graceMs: number): Promise<ReapedSession | null> {
  const { session } = entry;
  let terminated = false;
  const who = identityOf(session.pid);
  if (session.alive()) {
    if (!all) return null;
    terminated = true;
    try {
      await session.close({ graceMs, force: false });
    } catch (error) {
      return sessionEntry(ctx, entry, terminated, uncertain(`closing the session failed: ${(error as Error).message}`));
    }
  }
  const receipt = who !== undefined && stillRuns(who)
    ? uncertain(`pid ${session.pid} still runs after the session closed`)
    : confirmed(session.exitFacts()?.forced ?? false);
  const reaped = sessionEntry(ctx, entry, terminated, receipt);
  ctx.registry.remove(entry.id);
  session.dispose?.();
  return reaped;
}

function sessionEntry(ctx: AgentContext, entry: SessionEntry, terminated: boolean, receipt: Receipt): ReapedSession {
  return { ...ctx.registry.info(entry), terminated, receipt };
}
