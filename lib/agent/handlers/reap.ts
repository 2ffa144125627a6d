// `reap`: retires finished jobs and exited sessions, each with its exit
// facts and a receipt; with `all`, first terminates every job and session
// still running (jobs through the guardian's census). Idempotent: a second
// reap finds nothing.
import type { AgentContext } from "../agent-context.ts";
import type { Job } from "../../jobs/job.ts";
import { jobSettled } from "../../jobs/job-wait.ts";
import { confirmed, uncertain } from "../../jobs/receipts.ts";
import { stillRuns, identityOf } from "../../jobs/proc-identity.ts";
import type { ReapItem, ReapRequest, ReplyBodies } from "../protocol.ts";
import type { SessionEntry } from "../session-registry.ts";
import { exitStatusOf } from "../../spawn/exit-facts.ts";

/** Extra time over the grace for a terminated job's exit facts to arrive. */
const SETTLE_MS = 10_000;

/** Reaps; replies with one item per job or session retired. */
export async function handleReap(ctx: AgentContext, request: ReapRequest): Promise<ReplyBodies["reap"]> {
  const graceMs = request.graceMs ?? ctx.defaults.closeGraceMs;
  const all = request.all === true;
  const jobs = await Promise.all(ctx.jobs.all().map((job) => reapJob(ctx, job, all, graceMs)));
  const sessions = await Promise.all(ctx.registry.all().map((entry) => reapSession(ctx, entry, all, graceMs)));
  return { items: [...jobs, ...sessions].filter((item): item is ReapItem => item !== null) };
}

async function reapJob(ctx: AgentContext, job: Job, all: boolean, graceMs: number): Promise<ReapItem | null> {
  let receipt = job.receipt;
  let terminated = false;
  if (job.state !== "done") {
    if (!all) return null;
    terminated = true;
    receipt = await job.process.terminate(graceMs);
    if (!await jobSettled(job, graceMs + SETTLE_MS)) {
      receipt = uncertain(`%${job.id} was signalled but its exit was not reported within ${graceMs + SETTLE_MS} ms`);
      return item(job, terminated, receipt);
    }
  } else {
    await jobSettled(job, SETTLE_MS);
  }
  ctx.jobs.retire(job);
  return item(job, terminated, receipt ?? confirmed());
}

function item(job: Job, terminated: boolean, receipt: NonNullable<Job["receipt"]>): ReapItem {
  return {
    kind: "job",
    id: `%${job.id}`,
    name: job.name,
    argv: job.argv,
    pid: job.pid,
    terminated,
    exit: job.exit,
    status: job.status,
    receipt,
  };
}

async function reapSession(ctx: AgentContext, entry: SessionEntry, all: boolean, graceMs: number): Promise<ReapItem | null> {
  const { session } = entry;
  let terminated = false;
  const who = identityOf(session.pid);
  if (session.alive()) {
    if (!all) return null;
    terminated = true;
    try {
      await session.close({ graceMs, force: false });
    } catch (error) {
      return sessionItem(entry, terminated, uncertain(`closing the session failed: ${(error as Error).message}`));
    }
  }
  const receipt = who !== undefined && stillRuns(who)
    ? uncertain(`pid ${session.pid} still runs after the session closed`)
    : confirmed(session.exitFacts()?.forced ?? false);
  ctx.registry.remove(entry.id);
  session.dispose?.();
  return sessionItem(entry, terminated, receipt);
}

function sessionItem(entry: SessionEntry, terminated: boolean, receipt: ReapItem["receipt"]): ReapItem {
  const exit = entry.session.exitFacts();
  const status = exit === null ? null : exitStatusOf(exit);
  return {
    kind: "session",
    id: entry.id,
    name: entry.name,
    argv: entry.session.argv,
    pid: entry.session.pid,
    terminated,
    exit,
    status,
    receipt,
  };
}
