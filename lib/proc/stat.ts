// The one reader of /proc/PID/stat (proc(5)). Termination, census, reap and
// the foreground check all need a few of its fields; reading them here once
// keeps the parsing (the command name may hold spaces and ")") in one place.
import { readFileSync, readdirSync } from "node:fs";

/** The fields of /proc/PID/stat corral uses. */
export interface ProcStat {
  readonly pid: number;
  /** One letter: R, S, D, T, t, Z, X ... */
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  /** The foreground process group of the process's controlling terminal (-1: none). */
  readonly tpgid: number;
  /** Field 22: clock ticks since boot when it started. With the pid, it names one process for ever. */
  readonly startTime: number;
}

/** The stat of `pid`, or undefined when it is gone (or /proc is not there). */
export function readStat(pid: number | string): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined; // gone between a listing and this read
  }
  return parseStat(pid, text);
}

/** The fields of a /proc/PID/stat text (read by path here, or through a kept descriptor). */
export function parseStat(pid: number | string, text: string): ProcStat {
  // Fields start after the last ")": the command name before it may hold anything.
  // Walked to field 19 and no further: the line has 52 fields, and splitting
  // them all was most of a foreground read (every screen reply; issue 33).
  const fields: string[] = [];
  let at = text.lastIndexOf(")") + 2;
  while (fields.length <= 19) {
    const space = text.indexOf(" ", at);
    if (space < 0) {
      if (at <= text.length) fields.push(text.slice(at));
      break;
    }
    fields.push(text.slice(at, space));
    at = space + 1;
  }
  return {
    pid: Number(pid),
    state: fields[0] ?? "",
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    tpgid: Number(fields[5]),
    startTime: Number(fields[19]),
  };
}

/** Alive for corral's purposes: present and not a zombie (DESIGN.md 4.2). */
export function isLive(stat: ProcStat | undefined): stat is ProcStat {
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
}

/** Every pid listed in /proc; null when /proc cannot be listed (not Linux). */
export function procPids(): number[] | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  const pids: number[] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    pids.push(Number(entry));
  }
  return pids;
}

/** The stats of every live process; empty when /proc cannot be listed. */
export function liveStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const pid of procPids() ?? []) {
    const stat = readStat(pid);
    if (isLive(stat)) stats.push(stat);
  }
  return stats;
}
