// Telling a process from a later one that reused its pid: a pid plus its
// start time (/proc/PID/stat field 22) names one process for ever. Reap uses
// this to act on what a dead agent recorded without hitting a stranger.
import { readFileSync, readdirSync } from "node:fs";

/** A process named so that pid reuse cannot fool us. */
export interface ProcessIdentity {
  readonly pid: number;
  /** Clock ticks since boot when it started. */
  readonly startTime: number;
}

interface StatLine {
  readonly state: string;
  readonly pgrp: number;
  readonly session: number;
  readonly startTime: number;
}

function readStat(pid: number | string): StatLine | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // The command name may hold spaces and ")": fields start after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return {
    state: fields[0] ?? "",
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    startTime: Number(fields[19]),
  };
}

/** The identity of a live pid (this process's own with `process.pid`), or undefined. */
export function identityOf(pid: number): ProcessIdentity | undefined {
  const stat = readStat(pid);
  return stat === undefined ? undefined : { pid, startTime: stat.startTime };
}

/** The very process `who` names still runs (a zombie counts as gone, DESIGN.md 4.2). */
export function stillRuns(who: ProcessIdentity): boolean {
  const stat = readStat(who.pid);
  return stat !== undefined && stat.startTime === who.startTime && stat.state !== "Z" && stat.state !== "X";
}

/** Live pids whose process group is `pgid` or whose session is `sid` (0 matches none). */
export function treeMembers(pgid: number, sid: number): number[] {
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const stat = readStat(entry);
    if (stat === undefined || stat.state === "Z" || stat.state === "X") continue;
    if ((pgid > 0 && stat.pgrp === pgid) || (sid > 0 && stat.session === sid)) found.push(Number(entry));
  }
  return found;
}
