// `corral jobs wait [ID...]`: what a CI script does after starting steps in
// parallel with `run --bg` (pueue #434 asks the same of pueue): block until
// they end, one line each as it ends, and one status for the lot.
import type { CorralContext } from "../../shared/context.ts";
import { withAgent } from "../../shared/agent-reach.ts";
import { ExitStatus, UsageError } from "../../shared/exit-status.ts";
import type { JobsWaitFlags } from "./flags.ts";
import { jobRow } from "../../shared/jobs/format.ts";
import { noAgent } from "../../shared/jobs/no-agent.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import type { JobInfo } from "../../../lib/jobs/job-info.ts";
import { JobIdError, parseJobRef } from "../../../lib/jobs/job-id.ts";
import { formatDuration } from "../../../lib/core/duration.ts";

// How often the job table is looked at. Jobs end on the agent's side; a
// fifth of a second is quick for a person and nothing for the agent.
const POLL_MS = 200;

/** The command function of `corral jobs wait`. */
export async function jobsWaitAction(this: CorralContext, flags: JobsWaitFlags, ...ids: string[]): Promise<void> {
  for (const id of ids) {
    try {
      parseJobRef(id);
    } catch (error) {
      if (error instanceof JobIdError) throw new UsageError(error.message);
      throw error;
    }
  }
  const timeoutMs = flags.timeout;
  await withAgent(this, flags, (client) => waitForJobs(this, client, ids, flags, timeoutMs), {
    start: false,
    whenAbsent: () => (ids.length > 0 ? noAgent(this) : undefined),
  });
}

async function waitForJobs(ctx: CorralContext, client: AgentClient, ids: readonly string[], flags: JobsWaitFlags, timeoutMs: number | undefined): Promise<void> {
  const { stdout, stderr } = ctx.process;
  // Names, %+ and %- are resolved once, now: %+ may name another job later.
  const waiting = new Set<number>();
  const watched: JobInfo[] = [];
  if (ids.length === 0) {
    for (const job of (await client.call({ op: "jobs" })).jobs) if (job.state !== "done") watched.push(job);
  } else {
    for (const id of ids) watched.push((await client.call({ op: "job-read", job: id, from: 0, maxBytes: 1 })).job);
  }
  for (const job of watched) waiting.add(job.number);
  // Said at once, so a CI log (or a script) knows what is being waited for.
  const names = [...new Map(watched.map((j) => [j.number, j.name === null ? j.id : `${j.id} (${j.name})`])).values()];
  stderr.write(names.length === 0 ? "corral: jobs wait: no jobs running\n" : `corral: waiting for ${names.join(", ")}\n`);
  const deadline = timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
  let firstFailure: number | undefined;
  const ended = (job: JobInfo | undefined, id: number): boolean => {
    waiting.delete(id);
    const status = job?.status ?? ExitStatus.corralFailure;
    if (job === undefined) stderr.write(`corral: %${id} left the job table (reaped) before its end was seen\n`);
    // A line per job as it ends, each {job: ...} as job-start and bg answer: named fields at the top, as everywhere.
    else stdout.write(flags.json ? `${JSON.stringify({ job })}\n` : `${jobRow(job)}\n`);
    if (status !== 0 && firstFailure === undefined) firstFailure = status;
    return flags.any;
  };
  for (;;) {
    const table = new Map((await client.call({ op: "jobs" })).jobs.map((j) => [j.number, j]));
    // In the order they ended, as far as one look at the table can tell.
    const done = [...waiting]
      .map((id) => ({ id, job: table.get(id) }))
      .filter(({ job }) => job === undefined || job.state === "done")
      .sort((a, b) => endedAt(a.job) - endedAt(b.job));
    for (const { id, job } of done) {
      if (ended(job, id)) {
        ctx.process.exitCode = job?.status ?? ExitStatus.corralFailure;
        return;
      }
    }
    if (waiting.size === 0) break;
    if (deadline !== undefined && performance.now() >= deadline) {
      const left = [...waiting].map((id) => `%${id}`).join(", ");
      stderr.write(`corral: jobs wait: --timeout ${formatDuration(flags.timeout ?? 0)} passed; still running: ${left}\n`);
      ctx.process.exitCode = ExitStatus.timedOut;
      return;
    }
    const left = deadline === undefined ? POLL_MS : Math.max(0, Math.min(POLL_MS, deadline - performance.now()));
    await new Promise((resolve) => setTimeout(resolve, left));
  }
  ctx.process.exitCode = firstFailure ?? ExitStatus.ok;
}

/** When a done job ended (start + duration), for ordering jobs seen done in the same look. */
function endedAt(job: JobInfo | undefined): number {
  return job === undefined ? 0 : job.startedAt + (job.exit?.durationMs ?? 0);
}
