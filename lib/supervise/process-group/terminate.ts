// terminate(grace) over a whole process group (DESIGN.md 4.2): the first
// signal (SIGTERM unless a forwarded one) plus SIGCONT so stopped members can
// act on it, up to `grace` for the group to go, then SIGKILL. Returns only
// when the group is gone, or names the pids it could not confirm gone.
import { signalGroup } from "../runtime-quirks.ts";
import { groupMembers, waitGroupGone } from "./members.ts";
import type { TerminateOptions } from "../handle.ts";

/** How long SIGKILL may take to show in /proc before a pid is called uncertain. */
const KILL_CONFIRM_MS = 10_000;

/**
 * What one sweep of the group found. Kept as pids, not a Receipt, because
 * `run` names them on stderr and in SupervisionResult.uncertain; the handle
 * tells it as a Receipt (receiptOfLeftovers) to everyone else.
 */
export interface GroupSweep {
  /** SIGKILL was needed: something outlived the first signal and the grace. */
  readonly forced: boolean;
  /** Pids still present after SIGKILL: could not be confirmed gone, never a guess. */
  readonly left: readonly number[];
}

export type { TerminateOptions } from "../handle.ts";

/** Terminates every member of group `pgid`; see the file comment for the steps. */
export async function terminateGroup(pgid: number, options: TerminateOptions): Promise<GroupSweep> {
  // kill(-pgid, 0) failing means no member at all, not even a zombie: the
  // common case after a clean exit, answered without reading /proc.
  if (!signalGroup(pgid, 0) || groupMembers(pgid).length === 0) return { forced: false, left: [] };
  signalGroup(pgid, options.signal ?? "SIGTERM");
  signalGroup(pgid, "SIGCONT");
  if (await waitGroupGone(pgid, options.graceMs)) return { forced: false, left: [] };
  signalGroup(pgid, "SIGKILL");
  if (await waitGroupGone(pgid, KILL_CONFIRM_MS)) return { forced: true, left: [] };
  return { forced: true, left: groupMembers(pgid) };
}
