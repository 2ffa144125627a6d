// Cleaning up after an agent that died without doing it (SIGKILL, OOM): the
// guardians it recorded in the state dir are found, asked (with their
// token) to terminate their trees and exit, or signalled when they do not
// answer; what is left of a child's group or session is terminated too.
// Records whose agent still runs are that agent's business and are skipped.
import process from "node:process";
import { connectGuardian } from "../supervise/reconnect.ts";
import { type GuardianRecord, readRecords, removeRecord } from "../supervise/guardian-records.ts";
import { jobLabel, type Receipt } from "./job-info.ts";
import { stillRuns } from "../proc/identity.ts";
import { describeOrphanedTree, terminateOrphanedTree } from "../supervise/orphaned-tree.ts";
import { confirmed, receiptOfCensus, uncertain } from "../supervise/receipts.ts";

/** What reap did about one guardian a dead agent left behind. */
export interface OrphanItem {
  readonly guardianPid: number;
  readonly agentPid: number;
  /** The job it ran, named as every command names a job; null for a session. */
  readonly job: { readonly id: string; readonly number: number } | null;
  readonly argv: readonly string[];
  /** What was found and done, in words. */
  readonly action: string;
  readonly receipt: Receipt;
}

/** How long a guardian may take to answer its token. */
const CONNECT_MS = 3000;
/** How long SIGKILL may take to show in /proc. */
const KILL_CONFIRM_MS = 5000;

/** Cleans up every record whose agent is gone; returns one item per record. */
export async function sweepOrphans(stateDir: string, graceMs: number): Promise<OrphanItem[]> {
  const items: OrphanItem[] = [];
  for (const record of readRecords(stateDir).records) {
    // A live owner keeps its guardians, this process included: an agent serving the native
    // client's `reap` runs this code itself, and its own guardians are not orphans.
    if (stillRuns(record.owner)) continue;
    items.push(await cleanOrphan(record, graceMs));
    removeRecord(stateDir, record.guardian.pid);
  }
  return items;
}

async function cleanOrphan(record: GuardianRecord, graceMs: number): Promise<OrphanItem> {
  const job = record.job === null ? null : { id: jobLabel(record.job), number: record.job };
  const base = { guardianPid: record.guardian.pid, agentPid: record.owner.pid, job, argv: record.argv };
  // Marked by a new agent that could not re-adopt it (issue 11): the reason leads.
  let action = record.lost !== undefined ? `not re-adopted (${record.lost}); its guardian had already exited` : "its guardian had already exited";
  let receipt: Receipt | null = null;
  if (stillRuns(record.guardian)) {
    const answered = await throughGuardian(record, graceMs);
    if (answered !== null) {
      action = "terminated through its guardian";
      receipt = answered;
    } else {
      action = "its guardian did not answer; signalled it (SIGTERM, then SIGKILL)";
      process.kill(record.guardian.pid, "SIGTERM");
      if (!await gone(() => stillRuns(record.guardian), graceMs + 2000)) {
        process.kill(record.guardian.pid, "SIGKILL");
        await gone(() => stillRuns(record.guardian), KILL_CONFIRM_MS);
      }
    }
  }
  const rest = await terminateLeftovers(record, graceMs);
  if (rest !== null) {
    action += `; ${rest.action}`;
    if (rest.receipt.status === "uncertain" || receipt === null) receipt = rest.receipt;
  }
  return { ...base, action, receipt: receipt ?? confirmed() };
}

/** The guardian's own census terminate, with its receipt; null when it would not talk. */
async function throughGuardian(record: GuardianRecord, graceMs: number): Promise<Receipt | null> {
  const guardian = connectGuardian(record.socket, record.token);
  try {
    await withTimeout(guardian.ready, CONNECT_MS);
    const receipt = await withTimeout(guardian.shutdown(graceMs), graceMs + 15_000);
    await gone(() => stillRuns(record.guardian), KILL_CONFIRM_MS);
    return receiptOfCensus(receipt);
  } catch {
    return null;
  } finally {
    guardian.detach();
  }
}

/** What is still identifiable of the child's tree (lib/supervise/orphaned-tree.ts): its group, session and descendants. */
async function terminateLeftovers(record: GuardianRecord, graceMs: number): Promise<{ action: string; receipt: Receipt } | null> {
  const child = record.child;
  if (child === null) return null;
  const tree = await terminateOrphanedTree(child, graceMs);
  if (tree.terminated.length === 0 && !tree.procUnreadable) return null;
  const action = `terminated ${tree.terminated.length} leftover process(es) of its tree`;
  if (tree.left.length === 0 && !tree.procUnreadable) return { action, receipt: confirmed(tree.forced) };
  return { action, receipt: uncertain(describeOrphanedTree(tree), tree.forced) };
}

/** Polls until `present()` is false or `ms` passed; true when it went. */
async function gone(present: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  let interval = 5;
  while (present()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, interval));
    interval = Math.min(interval * 2, 100);
  }
  return true;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
