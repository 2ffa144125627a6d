// What is running: tests use these to prove a tree is gone (DESIGN.md 4.2:
// a zombie counts as gone) and the suite driver uses them to find leaks.
import { readFileSync, readdirSync } from "node:fs";

/** The marker every process started by the suite carries in its environment. */
export const SUITE_MARKER = "CORRALTEST_SUITE";

/** State letter from /proc/PID/stat, or undefined when the pid is gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/** Alive means present and not a zombie. */
export function isAlive(pid: number): boolean {
  const state = processState(pid);
  return state !== undefined && state !== "Z" && state !== "X";
}

export interface MarkedProcess {
  readonly pid: number;
  readonly cmdline: string;
}

/** Live processes whose environment holds `${SUITE_MARKER}=${value}`. */
export function processesMarked(value: string): MarkedProcess[] {
  return processesWithEnv(SUITE_MARKER, value);
}

/**
 * Whether `pid`'s environment holds `${name}=${value}`: the process is one of
 * a run's (pids wrap at 32768 on many machines, and a suite starts tens of
 * thousands of processes, so a pid read earlier may name another test's now).
 */
export function hasEnv(pid: number, name: string, value: string): boolean {
  try {
    return (readFileSync(`/proc/${pid}/environ`, "latin1") + "\0").includes(`${name}=${value}\0`);
  } catch {
    return false; // gone, or not ours to read
  }
}

/** Live processes whose environment holds `${name}=${value}`. */
export function processesWithEnv(name: string, value: string): MarkedProcess[] {
  return processesWhere((pid) => hasEnv(pid, name, value));
}

/**
 * Processes whose command line names `dir` (or a path under it): a daemon
 * that drops its environment (sshd) is still found by the files it was
 * started with.
 */
export function processesMentioning(dir: string): MarkedProcess[] {
  return processesWhere((pid) => {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return argv.includes(`${dir}/`) || argv.includes(`${dir}\0`);
  });
}

function processesWhere(matches: (pid: number) => boolean): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!matches(pid) || !isAlive(pid)) continue;
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      found.push({ pid, cmdline });
    } catch {
      // gone between readdir and read, or not ours to read
    }
  }
  return found;
}
