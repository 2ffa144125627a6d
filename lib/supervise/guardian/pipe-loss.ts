// What a pipe tree (pipe-tree.ts) does when its guardian is lost: killed
// (SIGKILL, OOM) before it reported the exit or cleaned up, or stuck and
// not answering a terminate. corral then terminates what it can still
// identify of the tree itself (found by the guardian's parenthood while it
// lives), and the loss becomes its own fact in the result.
import type { SupervisionResult } from "../handle.ts";
import type { OrphanedTreeReport } from "../orphaned-tree.ts";
import { withinMs } from "../timeout.ts";
import { describeEnd } from "../../core/exit-words.ts";
import type { Guardian } from "./client.ts";
import { exitFactsOf } from "./facts.ts";
import type { ExitedEvent } from "./protocol.ts";

/** Beyond its grace, a terminate (of a pipe tree or a job) has the guardian's SIGKILL wait (2 s) and this much more to answer. */
export const UNANSWERED_MARGIN_MS = 10_000;

/**
 * A guardian that stopped answering still parents what it adopted (it is
 * the subreaper: setsid escapees whose parent died are its children), so
 * its tree is ended while it lives, found by that parenthood, and only then
 * is it killed: killed first, it would hand them to init, out of sight.
 */
export async function endStuckGuardian(guardian: Guardian, graceMs: number): Promise<OrphanedTreeReport | undefined> {
  const child = guardian.child;
  let report: OrphanedTreeReport | undefined;
  if (child !== undefined) {
    const { terminateOrphanedTree } = await import("../orphaned-tree.ts");
    report = await terminateOrphanedTree(child, graceMs, guardian.pid);
  }
  guardian.process?.kill("SIGKILL");
  return report;
}

/** What the pipe tree knew when its guardian was lost. */
export interface PipeLoss {
  /** The guardian's exit event, when it came before the loss. */
  readonly exited: ExitedEvent | null;
  readonly durationMs: number;
  readonly graceMs: number;
  readonly timedOut: boolean;
  /** What endStuckGuardian terminated, when corral killed an unresponsive guardian. */
  readonly stuckCleanup: OrphanedTreeReport | undefined;
  /** corral killed a guardian that stopped answering. */
  readonly unresponsive: boolean;
  readonly faults: readonly string[];
}

/**
 * The guardian died before it reported the exit (`exited` null) or before
 * it cleaned up the tree: what is left is terminated here, and the result
 * says the end is unknown (or known) with the loss. `detached` is called
 * once the guardian's connection is let go (the streams end there).
 */
export async function afterPipeLoss(guardian: Guardian, lost: PipeLoss, detached: () => void): Promise<SupervisionResult> {
  const guardianPid = guardian.pid;
  let how = await withinMs(guardian.processExit, 200);
  guardian.detach();
  detached();
  const child = guardian.child;
  const { terminateOrphanedTree, describeOrphanedTree } = await import("../orphaned-tree.ts");
  // A guardian still alive (on its way out, or stuck) still parents what it adopted.
  const found = child === undefined
    ? { terminated: [], forced: false, left: [], procUnreadable: false }
    : await terminateOrphanedTree(child, lost.graceMs, how === undefined ? guardianPid : 0);
  const earlier = lost.stuckCleanup;
  const tree = earlier === undefined ? found : {
    ...found,
    terminated: [...new Set([...earlier.terminated, ...found.terminated])],
    forced: earlier.forced || found.forced,
  };
  let unresponsive = lost.unresponsive;
  how ??= await withinMs(guardian.processExit, 2000);
  if (how === undefined) {
    unresponsive = true;
    guardian.process?.kill("SIGKILL");
  }
  const cause = unresponsive ? "stopped answering (corral killed it)" : describeEnd(how);
  const known = lost.exited ?? { code: null, signal: null, core: false };
  const base = exitFactsOf(known, { timedOut: lost.timedOut, durationMs: lost.durationMs, outputComplete: false });
  return {
    facts: {
      ...base,
      forced: tree.forced,
      supervisorLost: { pid: guardianPid, cause, cleanup: describeOrphanedTree(tree) },
    },
    uncertain: tree.left,
    ...(lost.faults.length === 0 ? {} : { faults: [...lost.faults] }),
  };
}
