// Who is in a process tree, with their command lines: what corral names
// when it decides something about them (a writer that outlived the command,
// how many processes a timeout signalled). Read from /proc only when such a
// decision is taken, never on the common path: a scan of /proc costs.
import { readFileSync } from "node:fs";
import { isLive, procPids, readStat } from "./stat.ts";

/** One process as corral names it: its pid and its argv (as /proc/PID/cmdline says). */
export interface NamedProcess {
  readonly pid: number;
  readonly argv: readonly string[];
}

/** Live (not zombie) descendants of `root` (not `root` itself), by parent links; empty without /proc. */
export function liveDescendants(root: number): number[] {
  const pids = procPids();
  if (pids === null || root <= 0) return [];
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (!isLive(stat)) continue;
    const list = children.get(stat.ppid);
    if (list === undefined) children.set(stat.ppid, [pid]);
    else list.push(pid);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The argv of `pid` (empty when it is gone or a kernel thread). */
export function argvOf(pid: number): string[] {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    const parts = text.split("\0");
    if (parts[parts.length - 1] === "") parts.pop();
    return parts;
  } catch {
    return [];
  }
}

/** Each pid with its argv, those already gone left out. */
export function namedProcesses(pids: readonly number[]): NamedProcess[] {
  return pids.map((pid) => ({ pid, argv: argvOf(pid) })).filter((p) => p.argv.length > 0);
}
