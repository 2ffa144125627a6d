// What is done when a guardian's connection closes before it reported the
// end of its tree: it was killed (SIGKILL, the OOM killer), or it is still
// there but cannot do its job (its writes fail, it stopped answering). The
// tree is never left to a supervisor nobody can talk to, and the end is
// never invented: a guardian still running is stopped, what can still be
// identified of the tree is terminated here (its adopted orphans included,
// found while it still parents them), then the guardian is killed; the
// facts say "end unknown" with this loss, and the receipt says what is left.
import process from "node:process";
import type { Guardian } from "./client.ts";
import { GUARDIAN_EXIT_CANNOT_SERVE } from "./protocol.ts";
import type { SupervisorLoss } from "../../core/exit-facts.ts";
import type { Receipt } from "../../core/receipt.ts";
import { describeOrphanedTree, terminateOrphanedTree } from "../orphaned-tree.ts";
import { uncertain } from "../receipts.ts";

/** How long a guardian whose connection closed gets to exit by itself before it is stopped. */
const EXIT_WAIT_MS = 2000;

/** The loss, the receipt of ending the tree, and whether SIGKILL was needed. */
export interface GuardianLossReport {
  readonly loss: SupervisorLoss;
  readonly receipt: Receipt;
  readonly forced: boolean;
}

function send(pid: number, name: NodeJS.Signals): void {
  try {
    if (pid > 0) process.kill(pid, name);
  } catch {
    // gone already
  }
}

/** Ends what is left of the tree of a guardian whose connection closed; see the header. */
export async function afterGuardianLoss(guardian: Guardian, graceMs: number): Promise<GuardianLossReport> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const how = await Promise.race([
    guardian.processExit ?? Promise.resolve(undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), EXIT_WAIT_MS))),
  ]);
  clearTimeout(timer);
  const stillThere = how === undefined;
  const cause = stillThere
    ? "stopped answering (its connection closed while it ran); it was stopped and killed"
    : how.signal !== null
    ? `was killed by ${how.signal}`
    : how.code === GUARDIAN_EXIT_CANNOT_SERVE
    ? "could not write to its owner and ended the tree itself"
    : `exited with status ${how.code ?? "unknown"}`;
  // A guardian still there is held still, so the tree it parents can be found and ended, then killed.
  if (stillThere) send(guardian.pid, "SIGSTOP");
  const child = guardian.child;
  if (child === undefined) {
    if (stillThere) send(guardian.pid, "SIGKILL");
    guardian.process?.kill("SIGKILL");
    return { loss: { pid: guardian.pid, cause, cleanup: "its child was never reported started" }, receipt: uncertain(`the guardian ${cause} before it reported its child`), forced: false };
  }
  const tree = await terminateOrphanedTree(child, graceMs, stillThere ? guardian.pid : 0);
  if (stillThere) {
    send(guardian.pid, "SIGKILL");
    guardian.process?.kill("SIGKILL");
  }
  const cleanup = describeOrphanedTree(tree);
  const receipt: Receipt = tree.left.length === 0 && !tree.procUnreadable
    ? { status: "confirmed", forced: tree.forced, reason: null }
    : uncertain(`supervisor lost (the guardian ${cause}); ${cleanup}`, tree.forced);
  return { loss: { pid: guardian.pid, cause, cleanup }, receipt, forced: tree.forced };
}
