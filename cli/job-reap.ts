// `corral reap`: retire what the agent holds that has finished (with --all,
// terminate what still runs first), then clean up after any agent that died
// without doing so. Never starts an agent. Exit 1 when a receipt is uncertain.
import path from "node:path";
import type { CorralContext } from "./context.ts";
import { ExitStatus } from "./exit-status.ts";
import { chosenSocket, reachAgent, reportFailure } from "./agent-reach.ts";
import type { ReapFlags } from "./job-flags.ts";
import { commandLine, describeEnd } from "./job-format.ts";
import { durationFlag } from "./pty-values.ts";
import { loadCommandConfig } from "./run-options.ts";
import { AgentUnavailableError } from "../lib/agent/auto-start.ts";
import type { ReapItem } from "../lib/agent/protocol.ts";
import { sweepOrphans, type OrphanItem } from "../lib/jobs/orphans.ts";
import type { Receipt } from "../lib/jobs/job-info.ts";

/** The command function of `corral reap`. */
export async function reapAction(this: CorralContext, flags: ReapFlags): Promise<void> {
  const config = await loadCommandConfig(this);
  const graceMs = durationFlag("--grace", flags.grace) ?? config.graceMs;
  let items: readonly ReapItem[] = [];
  let client;
  try {
    client = await reachAgent(this, flags, false);
    items = (await client.call({ op: "reap", all: flags.all, graceMs })).items;
  } catch (error) {
    if (!(error instanceof AgentUnavailableError)) {
      reportFailure(this, error);
      return;
    }
  } finally {
    client?.close();
  }
  const orphans = await sweepOrphans(path.dirname(chosenSocket(this, flags)), graceMs);
  const { stdout } = this.process;
  if (flags.json) {
    stdout.write(`${JSON.stringify({ items, orphans })}\n`);
  } else {
    for (const item of items) stdout.write(`${itemLine(item)}\n`);
    for (const orphan of orphans) stdout.write(`${orphanLine(orphan)}\n`);
    if (items.length === 0 && orphans.length === 0) stdout.write("nothing to reap\n");
  }
  const receipts: Receipt[] = [...items.map((i) => i.receipt), ...orphans.map((o) => o.receipt)];
  this.process.exitCode = receipts.every((r) => r.status === "confirmed") ? ExitStatus.ok : ExitStatus.failure;
}

function receiptText(receipt: Receipt): string {
  return receipt.status === "confirmed" ? "confirmed" : `uncertain (${receipt.reason ?? "no reason given"})`;
}

function itemLine(item: ReapItem): string {
  const what = item.kind === "job" ? item.id : `session ${item.id}`;
  const how = item.terminated ? `terminated, ${describeEnd(item.exit)}` : describeEnd(item.exit);
  return `${what}  ${how}  pid ${item.pid}  receipt ${receiptText(item.receipt)}  ${commandLine(item.argv)}`;
}

function orphanLine(orphan: OrphanItem): string {
  const job = orphan.job === null ? "" : ` (job %${orphan.job})`;
  return `orphan of agent ${orphan.agentPid}${job}: guardian ${orphan.guardianPid} ${orphan.action}; receipt ${receiptText(orphan.receipt)}  ${commandLine(orphan.argv)}`;
}
