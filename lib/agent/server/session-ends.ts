// A terminal session's end outlives the agent that saw it, as a job's does
// (lib/jobs/done-jobs.ts). An ended session lives in its agent's memory
// until it is reaped; an agent SIGKILLed or restarted a moment later would
// take its end with it, and the next agent would not know the session ever
// ran (`pty close` answering "no session"). So each session's end is written
// to the state dir (`sessions-done/<id>.json`) as it happens, with its last
// screen, and removed when the session is reaped or forgotten; a new agent
// lists these as ended sessions under their ids. A clean `agent stop`
// removes them (it ended everything on purpose).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ExitFacts } from "../../core/exit-facts.ts";
import type { SessionEntry } from "./session-registry.ts";
import { identityOf, type ProcessIdentity } from "../../proc/identity.ts";
import process from "node:process";

/** What is written for one ended session. */
export interface SessionEndRecord {
  readonly id: string;
  readonly name: string | null;
  readonly retired: boolean;
  readonly argv: readonly string[];
  readonly pid: number;
  readonly cols: number;
  readonly rows: number;
  readonly scrollback: number;
  readonly term: string;
  readonly createdAt: number;
  readonly position: number;
  /**
   * How it ended; null while a session whose terminal is the agent's own
   * (no guardian: node-pty) runs: if that agent dies, the session ends with
   * it, and the next agent says so (session-restore.ts).
   */
  readonly exit: ExitFacts | null;
  /** With `exit` null: the agent that holds the terminal, and the program's identity. */
  readonly heldBy?: ProcessIdentity;
  readonly child?: { readonly pid: number; readonly pgid: number; readonly sid: number; readonly startTime: number };
  /** The visible rows when it ended (absent: not read, or nothing known of them). */
  readonly lines?: readonly string[];
  readonly cursor?: { readonly row: number; readonly col: number };
}

/** `<state dir>/sessions-done`. */
export function sessionEndsDir(stateDir: string): string {
  return path.join(stateDir, "sessions-done");
}

function endFile(stateDir: string, id: string): string {
  return path.join(sessionEndsDir(stateDir), `${id}.json`);
}

/** Writes one session's end (best effort: a state dir that is gone takes nothing from the session). */
export function writeSessionEnd(stateDir: string, record: SessionEndRecord): void {
  if (!/^\d+$/.test(record.id)) return;
  try {
    mkdirSync(sessionEndsDir(stateDir), { recursive: true, mode: 0o700 });
    const file = endFile(stateDir, record.id);
    // Written aside and renamed: an agent killed mid-write leaves the old record or none, never half of one.
    writeFileSync(`${file}.tmp`, JSON.stringify(record) + "\n", { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch {
    // the state dir is gone (socket-watch.ts deals with that)
  }
}

export function removeSessionEnd(stateDir: string, id: string): void {
  try {
    rmSync(endFile(stateDir, id), { force: true });
  } catch {
    // the state dir is gone or is no directory any more
  }
}

export function removeAllSessionEnds(stateDir: string): void {
  try {
    rmSync(sessionEndsDir(stateDir), { recursive: true, force: true });
  } catch {
    // the state dir is gone or is no directory any more
  }
}

/** Every readable record, in id order; a damaged one is skipped. */
export function readSessionEnds(stateDir: string): SessionEndRecord[] {
  let names: string[];
  try {
    names = readdirSync(sessionEndsDir(stateDir));
  } catch {
    return [];
  }
  const records: SessionEndRecord[] = [];
  for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
    try {
      const record = JSON.parse(readFileSync(path.join(sessionEndsDir(stateDir), name), "utf8")) as SessionEndRecord;
      if (typeof record?.id === "string" && typeof record.exit === "object" && (record.exit !== null || record.heldBy !== undefined)) records.push(record);
    } catch {
      // unreadable: nothing to restore
    }
  }
  return records.sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * A session whose terminal is this agent's own (no guardian to outlive it):
 * written down at once, so that the next agent learns it ended with this one.
 */
export function noteAgentHeldSession(stateDir: string, entry: SessionEntry, term: string): void {
  const heldBy = identityOf(process.pid);
  const child = identityOf(entry.session.pid);
  if (heldBy === undefined) return;
  const { cols, rows } = entry.session.size();
  writeSessionEnd(stateDir, {
    id: entry.id, name: entry.name, retired: entry.retired, argv: entry.session.argv, pid: entry.session.pid,
    cols, rows, scrollback: entry.scrollback, term, createdAt: entry.session.startedAt, position: 0, exit: null, heldBy,
    ...(child !== undefined ? { child: { pid: child.pid, pgid: child.pid, sid: child.pid, startTime: child.startTime } } : {}),
  });
}

/**
 * Keeps the session's end once it comes: the facts at once (synchronously,
 * before anyone is told), then again with the last screen once it is read.
 * `then` runs after the facts are written (the guardian's record may go).
 */
export function keepSessionEnd(stateDir: string, entry: SessionEntry, term: string, then: () => void = () => {}): void {
  entry.session.onExit((exit) => {
    if (exit === null) {
      then();
      return;
    }
    const { cols, rows } = entry.session.size();
    const base: SessionEndRecord = {
      id: entry.id, name: entry.name, retired: entry.retired, argv: entry.session.argv, pid: entry.session.pid,
      cols, rows, scrollback: entry.scrollback, term, createdAt: entry.session.startedAt, position: entry.session.position(), exit,
    };
    writeSessionEnd(stateDir, base);
    then();
    void entry.session.screen({ peek: true }).then(
      (screen) => {
        // Reaped in the meantime: forgotten, not written again.
        if (existsSync(endFile(stateDir, entry.id))) writeSessionEnd(stateDir, { ...base, lines: screen.lines, cursor: { row: screen.cursor.row, col: screen.cursor.col } });
      },
      () => {},
    );
  });
}
