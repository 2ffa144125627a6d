// Guardians no record names any more: their state dir was removed (a
// harness's cleanup, a logout clearing $XDG_RUNTIME_DIR), so `reap` cannot
// find them by their records, and no agent can ever reach them again. They
// are found by their process instead: a /proc scan for this user's
// corral-guardian processes whose socket path lies in this state dir (the
// same path after a logout removed it) and that no record names, and whose
// parent is not a running agent (an agent still holding one decides about
// it). Guardians of other state dirs are theirs to reap. Each is
// asked to end its tree (SIGTERM: its census terminate, then it exits); one
// that does not is held still while what it parents is ended, then killed.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { isLive, procPids, readStat } from "../proc/stat.ts";
import { terminateOrphanedTree } from "../supervise/orphaned-tree.ts";
import { confirmed, uncertain } from "../supervise/receipts.ts";
import type { OrphanItem } from "./orphans.ts";

/** A guardian process found by a /proc scan. */
interface StrayGuardian {
  readonly pid: number;
  readonly startTime: number;
  readonly socket: string;
  readonly argv: readonly string[];
  readonly why: string;
}

function cmdline(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return text === "" ? null : text.replace(/\0$/, "").split("\0");
  } catch {
    return null;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** A running corral agent (its cmdline says `agent run`): it holds its guardians itself. */
function isAgent(pid: number): boolean {
  const argv = cmdline(pid);
  if (argv === null) return false;
  const i = argv.indexOf("agent");
  return i >= 0 && argv[i + 1] === "run";
}

/** This user's guardians of `stateDir` that no record names. */
export function findStrayGuardians(stateDir: string, recorded: ReadonlySet<number>): StrayGuardian[] {
  const uid = process.getuid?.() ?? -1;
  const found: StrayGuardian[] = [];
  for (const pid of procPids() ?? []) {
    if (recorded.has(pid) || pid === process.pid) continue;
    let owner: number;
    try {
      owner = statSync(`/proc/${pid}`).uid;
    } catch {
      continue;
    }
    if (owner !== uid) continue;
    const argv = cmdline(pid);
    if (argv === null || !/^corral-guardian(-asan)?$/.test(path.basename(argv[0] ?? ""))) continue;
    const at = argv.indexOf("--socket");
    const socket = at >= 0 ? argv[at + 1] : undefined;
    if (socket === undefined) continue; // run and collect: their owner holds the only way in
    const stat = readStat(pid);
    if (!isLive(stat) || isAgent(stat.ppid)) continue;
    if (path.dirname(socket) !== stateDir) continue;
    const gone = !exists(socket);
    const child = argv.indexOf("--");
    const why = gone ? `found by its process: its socket ${socket} is gone` : "found by its process: no record names it";
    found.push({ pid, startTime: stat.startTime, socket, argv: child >= 0 ? argv.slice(child + 1) : [], why });
  }
  return found;
}

function stillThere(g: StrayGuardian): boolean {
  const stat = readStat(g.pid);
  return isLive(stat) && stat.startTime === g.startTime;
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

async function goneWithin(g: StrayGuardian, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let interval = 5; stillThere(g); interval = Math.min(interval * 2, 100)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
  return true;
}

/** Ends one stray guardian's tree; the item reap prints. */
async function endStray(g: StrayGuardian, graceMs: number): Promise<OrphanItem> {
  const base = { guardianPid: g.pid, agentPid: 0, job: null, argv: g.argv };
  send(g.pid, "SIGTERM");
  if (await goneWithin(g, graceMs + 5000)) return { ...base, action: `${g.why}; it terminated its tree on SIGTERM`, receipt: confirmed() };
  // It does not do its job: held still, what it parents is ended here, then it is killed.
  send(g.pid, "SIGSTOP");
  const left: number[] = [];
  let forced = false;
  for (const pid of procPids() ?? []) {
    const stat = readStat(pid);
    if (!isLive(stat) || stat.ppid !== g.pid) continue;
    const tree = await terminateOrphanedTree({ pid, pgid: stat.pgrp, sid: stat.session, startTime: stat.startTime }, graceMs, g.pid);
    left.push(...tree.left);
    forced ||= tree.forced;
  }
  send(g.pid, "SIGKILL");
  await goneWithin(g, 5000);
  const action = `${g.why}; it did not end on SIGTERM, so its tree was terminated here and it was killed`;
  const receipt = left.length === 0 && !stillThere(g) ? confirmed(forced) : uncertain(`still present: pids ${[g.pid, ...left].join(", ")}`, forced);
  return { ...base, action, receipt };
}

/** Finds and ends every stray guardian (see the header); one item each. */
export async function sweepStrayGuardians(stateDir: string, recorded: ReadonlySet<number>, graceMs: number): Promise<OrphanItem[]> {
  return await Promise.all(findStrayGuardians(stateDir, recorded).map((g) => endStray(g, graceMs)));
}
