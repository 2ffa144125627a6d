// Telling a process from a later one that reused its pid: a pid plus its
// start time (/proc/PID/stat field 22) names one process for ever. Reap uses
// this to act on what a dead agent recorded without hitting a stranger.
import { isLive, liveStats, readStat } from "./stat.ts";

/** A process named so that pid reuse cannot fool us. */
export interface ProcessIdentity {
  readonly pid: number;
  /** Clock ticks since boot when it started. */
  readonly startTime: number;
}

/** The identity of a live pid (this process's own with `process.pid`), or undefined. */
export function identityOf(pid: number): ProcessIdentity | undefined {
  const stat = readStat(pid);
  return stat === undefined ? undefined : { pid, startTime: stat.startTime };
}

/** The very process `who` names still runs (a zombie counts as gone, DESIGN.md 4.2). */
export function stillRuns(who: ProcessIdentity): boolean {
  const stat = readStat(who.pid);
  return isLive(stat) && stat.startTime === who.startTime;
}

/** Live pids whose process group is `pgid` or whose session is `sid` (0 matches none). */
export function treeMembers(pgid: number, sid: number): number[] {
  return liveStats()
    .filter((s) => (pgid > 0 && s.pgrp === pgid) || (sid > 0 && s.session === sid))
    .map((s) => s.pid);
}
