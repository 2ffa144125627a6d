// The one translation of the guardian's terminate receipt (and of lib/supervise's
// termination report) into the receipt `reap` prints: confirmed, or
// uncertain with the reason, never a guess.
import type { TerminateReceipt } from "../native/guardian-protocol.ts";
import type { TerminationReport } from "../supervise/process-group/terminate.ts";
import type { Receipt } from "../core/receipt.ts";

/** From a guardian census: uncertain members are named with their reasons. */
export function receiptOfCensus(receipt: TerminateReceipt): Receipt {
  const reasons = receipt.uncertain.map((u) => (u.pid === null ? u.reason : `pid ${u.pid}: ${u.reason}`));
  return {
    status: receipt.status,
    forced: receipt.forced,
    reason: receipt.status === "confirmed" ? null : reasons.join("; ") || "the guardian could not confirm every member gone",
  };
}

/** From a process-group termination (no census: only the group is known). */
export function receiptOfGroup(report: TerminationReport): Receipt {
  if (report.uncertain.length === 0) return { status: "confirmed", forced: report.forced, reason: null };
  return { status: "uncertain", forced: report.forced, reason: `still present after SIGKILL: pids ${report.uncertain.join(", ")}` };
}

export { confirmed, uncertain } from "../core/receipt.ts";
