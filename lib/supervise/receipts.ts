// The one translation of the guardian's terminate receipt (its census) into
// corral's TerminationReport and Receipt (lib/core/receipt.ts): confirmed, or
// uncertain with the reason, never a guess. Pipe, terminal and job handles
// under the guardian all go through here.
import type { TerminateReceipt } from "../native/guardian-protocol.ts";
import type { Receipt, TerminationReport } from "../core/receipt.ts";

/** From a guardian census: uncertain members are named with their reasons. */
export function receiptOfCensus(receipt: TerminateReceipt): Receipt {
  const reasons = receipt.uncertain.map((u) => (u.pid === null ? u.reason : `pid ${u.pid}: ${u.reason}`));
  return {
    status: receipt.status,
    forced: receipt.forced,
    reason: receipt.status === "confirmed" ? null : reasons.join("; ") || "the guardian could not confirm every member gone",
  };
}

/** From a guardian census, the pids only: a note without one (/proc unreadable) is the caller's fault line. */
export function reportOfCensus(receipt: TerminateReceipt): TerminationReport {
  const pids = receipt.uncertain.flatMap((u) => (u.pid === null ? [] : [u.pid]));
  return { forced: receipt.forced, uncertain: receipt.status === "confirmed" ? [] : pids };
}

export { confirmed, receiptOfReport, uncertain } from "../core/receipt.ts";
