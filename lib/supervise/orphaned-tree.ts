// Terminating a tree whose supervisor is gone (its guardian was SIGKILLed
// or OOM-killed): nobody holds pidfds or a census any more, so corral finds
// what it can still identify itself from /proc and the child's recorded
// identity (pid + start time, process group, session), plus every live
// descendant of those. Only processes started no earlier than the child are
// touched, and a group or session id counts only when the child leads it and
// it still names the child's tree (a pid equal to a live pgid/sid is never
// handed out; once the id's own pid runs with another start time, the id
// belongs to a stranger).
// What left all of these (double fork plus setsid, re-parented to init) can
// no longer be found: the report says so rather than guessing.
import { isLive as live, procPids, readStat, type ProcStat as Stat } from "../proc/stat.ts";
import process from "node:process";

/** The child as its guardian reported it (the `started` event). */
export interface OrphanedChild {
  readonly pid: number;
  readonly pgid: number;
  readonly sid: number;
  /** /proc/PID/stat field 22. */
  readonly startTime: number;
}

/** What terminating an orphaned tree did. */
export interface OrphanedTreeReport {
  /** Every pid signalled (SIGTERM, and SIGKILL when `forced`). */
  readonly terminated: readonly number[];
  readonly forced: boolean;
  /** Pids still present after SIGKILL. */
  readonly left: readonly number[];
  /** /proc could not be read: nothing beyond the child's own group could be found. */
  readonly procUnreadable: boolean;
}

/** How long SIGKILL may take to show in /proc. */
const KILL_CONFIRM_MS = 5000;

/**
 * The members of the child's tree that can still be identified; null when
 * /proc cannot be listed. `supervisorPid`: a guardian that is still alive
 * (stuck, or on its way out): its descendants are the tree's too (it is
 * their subreaper), setsid escapees whose parent died included.
 */
export function orphanedMembers(child: OrphanedChild, supervisorPid = 0): number[] | null {
  const pids = procPids();
  if (pids === null) return null;
  const self = readStat(process.pid);
  const ownIds = new Set([process.pid, self?.pgrp ?? 0, self?.session ?? 0]);
  // A group/session id is the child's tree's only when the child leads it (the id is its pid)
  // and that pid is free or still the child (start times tick at 10 ms: never the only test).
  const stillOurs = (id: number) => {
    if (id <= 0 || id !== child.pid || ownIds.has(id)) return 0;
    const holder = readStat(id);
    return holder === undefined || holder.startTime === child.startTime ? id : 0;
  };
  const pgid = stillOurs(child.pgid);
  const sid = stillOurs(child.sid);
  const stats: Stat[] = [];
  for (const pid of pids) {
    const stat = readStat(pid);
    if (live(stat) && stat.pid !== process.pid && stat.startTime >= child.startTime) stats.push(stat);
  }
  const inTree = new Set<number>();
  for (const s of stats) {
    const isChild = s.pid === child.pid && s.startTime === child.startTime;
    const adopted = supervisorPid > 0 && s.ppid === supervisorPid;
    if (isChild || adopted || (pgid > 0 && s.pgrp === pgid) || (sid > 0 && s.session === sid)) inTree.add(s.pid);
  }
  // Descendants of anything in: a setsid escapee whose parent still runs is found here.
  for (let changed = true; changed;) {
    changed = false;
    for (const s of stats) {
      if (!inTree.has(s.pid) && inTree.has(s.ppid)) {
        inTree.add(s.pid);
        changed = true;
      }
    }
  }
  return [...inTree];
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

function signalGroupOf(child: OrphanedChild, name: NodeJS.Signals): void {
  const self = readStat(process.pid);
  if (child.pgid <= 0 || child.pgid === self?.pgrp) return;
  try {
    process.kill(-child.pgid, name);
  } catch {
    // no member left
  }
}

/**
 * SIGTERM (and SIGCONT) to every identifiable member, members found later
 * included, up to `graceMs`; then SIGKILL what is left and wait for it.
 */
export async function terminateOrphanedTree(child: OrphanedChild, graceMs: number, supervisorPid = 0): Promise<OrphanedTreeReport> {
  const signalled = new Set<number>();
  // Everything once found stays a member while its start time matches: a
  // supervisor that exits meanwhile re-parents its orphans out of sight.
  const seen = new Map<number, number>();
  let procUnreadable = false;
  const round = (name: NodeJS.Signals): number[] => {
    const found = orphanedMembers(child, supervisorPid);
    if (found === null) {
      // Without /proc only the child's group can be reached, and only by its id.
      procUnreadable = true;
      signalGroupOf(child, name);
      return [];
    }
    for (const pid of found) {
      const start = readStat(pid)?.startTime;
      if (start !== undefined && !seen.has(pid)) seen.set(pid, start);
    }
    const members = [...seen].flatMap(([pid, start]) => {
      const now = readStat(pid);
      return live(now) && now.startTime === start ? [pid] : [];
    });
    for (const pid of members) {
      signal(pid, name);
      if (name !== "SIGKILL") signal(pid, "SIGCONT");
      signalled.add(pid);
    }
    return members;
  };
  let left = round("SIGTERM");
  let forced = false;
  const deadline = Date.now() + graceMs;
  let interval = 5;
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, interval));
    interval = Math.min(interval * 2, 100);
    left = round("SIGTERM");
  }
  if (left.length > 0) {
    forced = true;
    const killDeadline = Date.now() + KILL_CONFIRM_MS;
    left = round("SIGKILL");
    while (left.length > 0 && Date.now() < killDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      left = round("SIGKILL");
    }
  }
  return { terminated: [...signalled], forced, left, procUnreadable };
}

/** One line saying what was done and what could not be, for stderr and receipts. */
export function describeOrphanedTree(report: OrphanedTreeReport): string {
  const done = report.terminated.length === 0
    ? "nothing of its tree was left to terminate"
    : `terminated ${report.terminated.length} process(es) of its tree${report.forced ? " (SIGKILL needed)" : ""}: pids ${report.terminated.join(", ")}`;
  const missing = report.procUnreadable
    ? "/proc is unreadable, so only the child's process group was signalled"
    : "a process that had left the child's group, session and descent (double fork plus setsid) cannot be identified any more";
  const left = report.left.length > 0 ? `; still present after SIGKILL: pids ${report.left.join(", ")}` : "";
  return `${done}${left}; ${missing}`;
}
