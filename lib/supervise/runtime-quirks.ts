// The one place where Node, Deno and Bun differences in process handling are
// decided. All three (Node 20+, Deno 2, Bun 1.x) implement `detached: true` as
// setsid() and accept a negative pid in process.kill for a process group;
// what differs is kept here so callers never branch on the runtime.
import process from "node:process";

/** Sends `signal` (0: only probe) to every member of group `pgid`; false when none is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (isNoSuchProcess(error)) return false;
    throw error;
  }
}

function isNoSuchProcess(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // Deno reports a vanished group as an error whose message holds ESRCH.
  return code === "ESRCH" || (error instanceof Error && /ESRCH|No such process/i.test(error.message));
}
