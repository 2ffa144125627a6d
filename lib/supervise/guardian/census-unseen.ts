// What a guardian's census could not see, ended by its owner. A guardian
// that cannot open /proc (hidepid, a sandbox, openat failing with EACCES)
// reaches only its child's process group: a setsid escapee it adopted as
// subreaper stays out of its sight, and it says so in its receipt ("/proc
// unreadable"), and stays while such children are left (native/terminate.c).
// Its owner usually can read /proc: while the guardian still parents them,
// the owner finds those orphans by their parent and ends them
// (orphaned-tree.ts), so one blind guardian leaves nothing running. The
// receipt is confirmed only when that sweep confirms everything gone.
import { terminateOrphanedTree } from "../orphaned-tree.ts";
import type { Guardian } from "./client.ts";
import type { TerminateReceipt } from "./protocol.ts";

const BLIND = "/proc unreadable";

/** The census's receipt, after ending what it could not see when the guardian was blind to /proc. */
export async function endWhatTheCensusMissed(guardian: Guardian, receipt: TerminateReceipt, graceMs: number): Promise<TerminateReceipt> {
  const child = guardian.child;
  if (receipt.status !== "uncertain" || child === undefined || !receipt.uncertain.some((u) => u.reason.startsWith(BLIND))) return receipt;
  const tree = await terminateOrphanedTree(child, graceMs, guardian.pid);
  const forced = receipt.forced || tree.forced;
  if (tree.procUnreadable) return { ...receipt, forced };
  const doubts = [
    ...receipt.uncertain.filter((u) => !u.reason.startsWith(BLIND)),
    ...tree.left.map((pid) => ({ pid, reason: "still present after SIGKILL (found by corral, the guardian could not read /proc)" })),
  ];
  return { ...receipt, forced, status: doubts.length === 0 ? "confirmed" : "uncertain", uncertain: doubts };
}
