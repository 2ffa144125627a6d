// Without the guardian nothing tells us when a PTY's descendants are gone, so
// the node-pty backend counts them from /proc: everything in the terminal's
// session (what a hangup reaches) plus every descendant of the program (what
// escaped with setsid). Weaker than the guardian's census (no pidfd, so a
// recycled pid is possible in theory) and documented as such.
import { readlinkSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { confirmed, type Receipt, receiptOfLeftovers } from "../../core/receipt.ts";
import { liveStats as allStats, readStat } from "../../proc/stat.ts";

// Holds the terminal open: a setsid() child of a background job is
// reparented to init at once, but its stdin/stdout still point at our pts.
// Only the standard descriptors count: a pts number is reused as soon as it
// is free, and a process that merely holds some pts open (a node-pty owner
// keeps each session's slave open, in any process on the machine) is not a
// program on that terminal; counting it let one session's close SIGTERM an
// unrelated process that had been given the same pts number.
function holdsTerminal(pid: number, ptsPath: string): boolean {
  for (const fd of ["0", "1", "2"]) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) === ptsPath) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

/**
 * Live pids in the PTY's session, descending from its program, or holding its
 * terminal (`ptsPath`) open. Zombies count as gone.
 */
export function sessionMembers(leader: number, ptsPath?: string): number[] {
  const stats = allStats();
  const members = new Set<number>();
  for (const s of stats) {
    if (s.session === leader || s.pid === leader) members.add(s.pid);
    else if (ptsPath !== undefined && s.pid !== process.pid && holdsTerminal(s.pid, ptsPath)) members.add(s.pid);
  }
  // Descendants that left the session with setsid() are still children of someone in it.
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of stats) {
      if (!members.has(s.pid) && members.has(s.ppid)) {
        members.add(s.pid);
        grew = true;
      }
    }
  }
  return [...members];
}

/** The terminal's foreground process group as the program's /proc entry reports it. */
export function foregroundGroup(leader: number): number | undefined {
  const tpgid = readStat(leader)?.tpgid;
  return tpgid !== undefined && tpgid > 0 ? tpgid : undefined;
}

function sendAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone already
    }
  }
}

/** The terminal to count by, asked afresh each look (undefined once it may belong to someone else). */
type HeldTerminal = () => string | undefined;

async function goneWithin(leader: number, terminal: HeldTerminal, ms: number, known: Set<number>): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    for (const pid of sessionMembers(leader, terminal())) known.add(pid);
    const alive = [...known].filter((pid) => {
      const state = readStat(pid)?.state;
      return state !== undefined && state !== "Z" && state !== "X";
    });
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await delay(Math.min(20, Math.max(1, deadline - Date.now())));
  }
}

/**
 * SIGTERM the session's processes, SIGKILL what outlives graceMs, confirm
 * they are gone. `known` holds pids seen in earlier censuses: a setsid()
 * descendant is reparented away when the program exits, so it is only found
 * through an earlier look; it is extended in place.
 */
export async function terminateSession(
  leader: number,
  terminal: HeldTerminal,
  graceMs: number,
  known = new Set<number>(),
  firstSignal: NodeJS.Signals = "SIGTERM",
): Promise<Receipt> {
  for (const pid of sessionMembers(leader, terminal())) known.add(pid);
  sendAll([...known], firstSignal);
  let alive = await goneWithin(leader, terminal, graceMs, known);
  if (alive.length === 0) return confirmed();
  sendAll(alive, "SIGKILL");
  // Newcomers forked during the grace are in `known` now; kill until none is left.
  for (let round = 0; round < 10 && alive.length > 0; round++) {
    alive = await goneWithin(leader, terminal, 200, known);
    sendAll(alive, "SIGKILL");
  }
  return receiptOfLeftovers(true, alive);
}
