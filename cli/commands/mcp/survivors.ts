// Naming what a `run` left running: at the moment its program exits (the
// supervisor's onChildExit, before the sweep ends them) every live process
// of its tree is listed with its command line, so the answer can say "the
// build left `sleep 999` (pid 4242) running; corral ended it" instead of a
// bare count. The tree is the program's process group and session, what
// was reparented to its supervisor (the guardian is a subreaper), and their
// descendants. Linux /proc only; elsewhere the list is empty.
import { readFileSync } from "node:fs";
import process from "node:process";
import { liveStats, readStat } from "../../../lib/proc/stat.ts";

/** A process the command left behind. */
export interface Survivor {
  readonly pid: number;
  readonly argv: readonly string[];
}

/** Who the program is, read right after it started (its group, session and supervisor). */
export interface TreeRoots {
  readonly pid: number;
  readonly pgid: number;
  readonly sid: number;
  /** The supervisor (the guardian), or null when it is this process (a plain process group). */
  readonly supervisor: number | null;
}

/** The roots of `pid`'s tree, or null when it is already gone. */
export function treeRoots(pid: number): TreeRoots | null {
  const stat = readStat(pid);
  if (stat === undefined) return null;
  return { pid, pgid: stat.pgrp, sid: stat.session, supervisor: stat.ppid === process.pid ? null : stat.ppid };
}

/** The live members of the tree other than the program itself. */
export function survivorsOf(roots: TreeRoots): Survivor[] {
  const stats = liveStats();
  const members = new Set<number>();
  for (const s of stats) {
    if (s.pid === roots.pid || s.pid === roots.supervisor || s.pid === process.pid) continue;
    const inGroup = s.pgrp === roots.pgid && roots.pgid === roots.pid;
    const inSession = s.session === roots.sid && roots.sid === roots.pid;
    const adopted = roots.supervisor !== null && s.ppid === roots.supervisor;
    if (inGroup || inSession || adopted) members.add(s.pid);
  }
  // Descendants of members (and of the program), to a fixed point.
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of stats) {
      if (members.has(s.pid) || s.pid === process.pid || s.pid === roots.supervisor) continue;
      if (members.has(s.ppid) || s.ppid === roots.pid) {
        members.add(s.pid);
        grew = true;
      }
    }
  }
  return [...members].sort((a, b) => a - b).map((pid) => ({ pid, argv: commandLine(pid) }));
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter((part, i, all) => part !== "" || i < all.length - 1);
  } catch {
    return [];
  }
}
