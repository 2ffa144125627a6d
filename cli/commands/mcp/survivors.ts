// Naming what a `run` left running: at the moment its program exits (the
// supervisor's onChildExit, before the sweep ends them) every live process
// of its tree is listed with its command line, so the answer can say "the
// build left `sleep 999` (pid 4242) running; corral ended it" instead of a
// bare count. The tree is the program's process group and session, what
// was reparented to its supervisor (the guardian is a subreaper), and their
// descendants. Linux /proc only; elsewhere the list is empty.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
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

/** How long a survivor caught between its fork and its exec gets to exec before it is named as it is. */
const EXEC_WAIT_MS = 250;
const EXEC_POLL_MS = 2;

/**
 * The survivors, each caught between its fork and its exec named again once
 * it has exec'd. At the program's exit, what `sh -c 'sleep 999 & echo hi'`
 * forked may not have exec'd `sleep` yet (the shell can echo and exit first,
 * on a loaded machine for tens of ms): its command line is still the
 * program's own. Such a one is read again until it shows another, is gone,
 * or EXEC_WAIT_MS passed (a subshell that never execs keeps the shell's).
 */
export async function namedAfterExec(found: readonly Survivor[], programArgv: readonly string[]): Promise<Survivor[]> {
  const forked = (s: Survivor) => s.argv.length === programArgv.length && s.argv.every((part, i) => part === programArgv[i]);
  let named = [...found];
  const deadline = performance.now() + EXEC_WAIT_MS;
  while (named.some(forked) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, EXEC_POLL_MS));
    named = named.map((s) => {
      if (!forked(s)) return s;
      const now = commandLine(s.pid);
      return now.length > 0 ? { pid: s.pid, argv: now } : s;
    });
  }
  return named;
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter((part, i, all) => part !== "" || i < all.length - 1);
  } catch {
    return [];
  }
}
