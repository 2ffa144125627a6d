// What a guardian's census could not see, ended by its owner. A guardian
// that cannot open /proc (hidepid, a sandbox, openat failing with EACCES)
// reaches only its child's process group: a setsid escapee it adopted as
// subreaper stays out of its sight, and it says so in its receipt ("/proc
// unreadable"). Its owner usually can read /proc: while the guardian still
// parents them, the owner finds those orphans by their parent and ends them
// (orphaned-tree.ts), so one blind guardian leaves nothing running. The
// receipt is confirmed only when that sweep confirms everything gone.
import type { Receipt } from "../../core/receipt.ts";
import { confirmed, uncertain } from "../../core/receipt.ts";
import { describeOrphanedTree, terminateOrphanedTree } from "../orphaned-tree.ts";
import type { Guardian } from "./client.ts";
import type { TerminateReceipt } from "./protocol.ts";
import { receiptOfCensus } from "../receipts.ts";

const BLIND = "/proc unreadable";

/** The census's receipt, after ending what it could not see when the guardian was blind to /proc. */
export async function endWhatTheCensusMissed(guardian: Guardian, receipt: TerminateReceipt, graceMs: number): Promise<Receipt> {
  const told = receiptOfCensus(receipt);
  const child = guardian.child;
  if (receipt.status !== "uncertain" || child === undefined || !receipt.uncertain.some((u) => u.reason.startsWith(BLIND))) return told;
  const tree = await terminateOrphanedTree(child, graceMs, guardian.pid);
  const otherDoubts = receipt.uncertain.filter((u) => !u.reason.startsWith(BLIND));
  const forced = receipt.forced || tree.forced;
  if (tree.left.length === 0 && !tree.procUnreadable && otherDoubts.length === 0) return confirmed(forced);
  return uncertain(`${told.reason ?? "the guardian could not read /proc"}; corral ${describeOrphanedTree(tree)}`, forced);
}
