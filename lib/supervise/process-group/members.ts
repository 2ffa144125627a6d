// Who is still in a process group, read from /proc (DESIGN.md 4.2). A zombie
// counts as gone: on some machines PID 1 reaps orphans only after seconds,
// and kill(pid, 0) still succeeds on a zombie, so it cannot be the test.
import { isLive, procPids, readStat } from "../../proc/stat.ts";
import { signalGroup } from "../runtime-quirks.ts";

/**
 * Pids of live (not zombie) processes whose process group is `pgid`.
 * Without /proc (not Linux) members cannot be listed: `[pgid]` stands for
 * "some member exists" while kill(-pgid, 0) succeeds, zombies included (the
 * weaker guarantee DESIGN.md section 2 allows there).
 */
export function groupMembers(pgid: number): number[] {
  const pids = procPids();
  if (pids === null) return signalGroup(pgid, 0) ? [pgid] : [];
  const members: number[] = [];
  for (const pid of pids) {
    const stat = readStat(pid);
    if (isLive(stat) && stat.pgrp === pgid) members.push(pid);
  }
  return members;
}

/**
 * Waits until the group has no live member or `timeoutMs` passed. Polls
 * /proc quickly at first (most trees die within milliseconds of a signal)
 * and backs off to spare a loaded machine. True when the group is gone.
 */
export async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let interval = 2;
  for (;;) {
    if (groupMembers(pgid).length === 0) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
    interval = Math.min(interval * 2, 50);
  }
}
