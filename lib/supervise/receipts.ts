// The one translation of the guardian's terminate receipt (its census) into
// corral's Receipt (lib/core/receipt.ts): confirmed, or uncertain with the
// reason, never a guess. Pipe, terminal and job handles under the guardian
// all go through here.
import type { TerminateReceipt } from "./guardian/protocol.ts";
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

/**
 * From a guardian census, the pids it could not confirm gone, for `run`'s
 * stderr line and SupervisionResult.uncertain; a note without a pid (/proc
 * unreadable) is the caller's fault line.
 */
export function pidsLeftByCensus(receipt: TerminateReceipt): readonly number[] {
  if (receipt.status === "confirmed") return [];
  return receipt.uncertain.flatMap((u) => (u.pid === null ? [] : [u.pid]));
}

export { confirmed, receiptOfLeftovers, uncertain } from "../core/receipt.ts";
