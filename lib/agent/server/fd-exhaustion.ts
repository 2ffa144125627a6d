// Running out of file descriptors is the agent's most likely resource
// failure (every session holds a socket and pipes), and Node reports it
// from deep inside spawn or accept. This turns it into the one sentence a
// person can act on, with the limit read at start-up (once descriptors run
// out, /proc/self/limits cannot be opened either).
import { readFileSync } from "node:fs";

let softLimit: string | null | undefined;

/** Reads the soft open-files limit now, while a file can still be opened. */
export function noteFdLimit(): void {
  if (softLimit !== undefined) return;
  try {
    softLimit = /^Max open files\s+(\S+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1] ?? null;
  } catch {
    softLimit = null;
  }
}

/** The one line for EMFILE/ENFILE, or null when `error` is something else. */
export function fdExhaustionMessage(error: unknown): string | null {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  const which = code === "EMFILE" || code === "ENFILE" ? code : /\b(EMFILE|ENFILE)\b/.exec(message)?.[1];
  if (which === "ENFILE") return "too many open files on this system (ENFILE: the kernel's file table is full); close sessions or processes and retry";
  if (which !== "EMFILE") return null;
  const limit = softLimit ? ` of ${softLimit}` : "";
  return `too many open files: the agent reached its limit${limit} (ulimit -n); close sessions (corral pty close, corral reap) or raise the limit and restart the agent (corral agent stop)`;
}
