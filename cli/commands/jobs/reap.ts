// `corral reap`: retire what the agent holds that has finished (with --all,
// terminate what still runs first), then clean up after any agent that died
// without doing so; with --all, also guardians no record names (found by
// their process: lib/jobs/stray-guardians.ts). Never starts an agent. Exit 1 when a receipt is uncertain.
// --json: {jobs, sessions, orphans}, jobs and sessions in their common shapes.
import path from "node:path";
import type { CorralContext } from "../../shared/context.ts";
import { ExitStatus } from "../../shared/exit-status.ts";
import { chosenSocket, reachAgent, reportFailure } from "../../shared/agent-reach.ts";
import { wantsRemote } from "../../shared/socket-flag.ts";
import type { ReapFlags } from "./flags.ts";
import { commandLine } from "../../shared/jobs/format.ts";
import { describeExit } from "../../../lib/core/exit-words.ts";
import { loadCommandConfig } from "../../shared/child/spawn-spec.ts";
import { AgentUnavailableError } from "../../../lib/agent/client/auto-start.ts";
import type { ReapedJob, ReapedSession } from "../../../lib/agent/protocol/messages.ts";
import { sweepOrphans, type OrphanItem } from "../../../lib/jobs/orphans.ts";
import { sweepStrayGuardians } from "../../../lib/jobs/stray-guardians.ts";
import { readRecords } from "../../../lib/supervise/guardian-records.ts";
import type { Receipt } from "../../../lib/jobs/job-info.ts";

/** The command function of `corral reap`. */
export async function reapAction(this: CorralContext, flags: ReapFlags): Promise<void> {
  const config = await loadCommandConfig(this);
  const graceMs = flags.grace ?? config.graceMs;
  let jobs: readonly ReapedJob[] = [];
  let sessions: readonly ReapedSession[] = [];
  let client;
  try {
    client = await reachAgent(this, flags, false);
    ({ jobs, sessions } = await client.call({ op: "reap", all: flags.all, graceMs }));
  } catch (error) {
    if (!(error instanceof AgentUnavailableError)) {
      reportFailure(this, error);
      return;
    }
  } finally {
    client?.close();
  }
  // Orphaned guardians are swept where their records are: on this machine only (a remote agent re-adopts its own).
  const stateDir = path.dirname(chosenSocket(this, flags));
  const recorded = new Set(readRecords(stateDir).records.map((r) => r.guardian.pid));
  const orphans = wantsRemote(this, flags) ? [] : await sweepOrphans(stateDir, graceMs);
  if (flags.all && !wantsRemote(this, flags)) orphans.push(...await sweepStrayGuardians(stateDir, recorded, graceMs));
  const { stdout } = this.process;
  if (flags.json) {
    // The job and session objects of `jobs --json` and `pty list --json`, each with its receipt.
    stdout.write(`${JSON.stringify({ jobs, sessions, orphans })}\n`);
  } else {
    for (const job of jobs) stdout.write(`${reapedLine(job.id, job)}\n`);
    for (const session of sessions) stdout.write(`${reapedLine(`session ${session.id}`, session)}\n`);
    for (const orphan of orphans) stdout.write(`${orphanLine(orphan)}\n`);
    if (jobs.length + sessions.length + orphans.length === 0) stdout.write("nothing to reap\n");
  }
  const receipts: Receipt[] = [...jobs, ...sessions, ...orphans].map((r) => r.receipt);
  this.process.exitCode = receipts.every((r) => r.status === "confirmed") ? ExitStatus.ok : ExitStatus.failure;
}

function receiptText(receipt: Receipt): string {
  return receipt.status === "confirmed" ? "confirmed" : `uncertain (${receipt.reason ?? "no reason given"})`;
}

function reapedLine(what: string, item: ReapedJob | ReapedSession): string {
  const how = item.terminated ? `terminated, ${describeExit(item.exit)}` : describeExit(item.exit);
  return `${what}  ${how}  pid ${item.pid}  receipt ${receiptText(item.receipt)}  ${commandLine(item.argv)}`;
}

function orphanLine(orphan: OrphanItem): string {
  const job = orphan.job === null ? "" : ` (job ${orphan.job.id})`;
  return `orphan of agent ${orphan.agentPid}${job}: guardian ${orphan.guardianPid} ${orphan.action}; receipt ${receiptText(orphan.receipt)}  ${commandLine(orphan.argv)}`;
}
