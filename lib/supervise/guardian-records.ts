// The agent writes down every guardian it starts (DESIGN.md 2: "a restarted
// agent can find it again"): pid and start time of the guardian, of the
// agent, and of the child, plus the socket and its token. When the agent
// dies without cleaning up (SIGKILL, OOM), `corral reap` reads these files
// and finishes the job. The files live in the 0700 state dir, 0600 each:
// the token is as private there as the socket itself.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ProcessIdentity } from "../proc/identity.ts";

/** One guardian as its owner recorded it. */
export interface GuardianRecord {
  readonly guardian: ProcessIdentity;
  readonly owner: ProcessIdentity;
  readonly child: { readonly pid: number; readonly pgid: number; readonly sid: number; readonly startTime: number } | null;
  readonly socket: string;
  readonly token: string;
  readonly argv: readonly string[];
  /** The job's N, when the guardian runs a job. */
  readonly job: number | null;
  readonly recordedAt: number;
  /** The guardian outlives its agent and waits for a new one (issue 11). */
  readonly adoptable?: boolean;
  /** A terminal session: what a new agent needs to rebuild it (lib/agent/adoption). */
  readonly session?: SessionFacts;
  /** A job: what a new agent needs to take it over (lib/agent/adoption). */
  readonly jobFacts?: JobFacts;
  /** Set by the agent that found the guardian gone or not answering: why it was not re-adopted. */
  readonly lost?: string;
  /**
   * A job's exit as its guardian reported it, written before the guardian is
   * asked to sweep the tree and exit: an agent that dies in between leaves
   * the next one the job's end, not a guardian gone without a word.
   */
  readonly exited?: { readonly code: number | null; readonly signal: number | null; readonly core: boolean; readonly durationMs: number };
  /**
   * Where the guardian stopped writing the job's spill, and why (a full
   * disk), written when it says so: a job restored from its record after its
   * guardian and its agent are both gone still reports where its spill ends.
   */
  readonly spillStopped?: { readonly from: number; readonly code: string; readonly message: string };
}

/** Adds the job's exit to a guardian's record (see GuardianRecord.exited); nothing when there is no record. */
export function markExited(stateDir: string, guardianPid: number, exited: NonNullable<GuardianRecord["exited"]>): void {
  amendRecord(stateDir, guardianPid, { exited });
}

/** Adds where the job's spill stopped to a guardian's record (see GuardianRecord.spillStopped). */
export function markSpillStopped(stateDir: string, guardianPid: number, spillStopped: NonNullable<GuardianRecord["spillStopped"]>): void {
  amendRecord(stateDir, guardianPid, { spillStopped });
}

function amendRecord(stateDir: string, guardianPid: number, change: Partial<GuardianRecord>): void {
  try {
    const record = JSON.parse(readFileSync(recordFile(stateDir, guardianPid), "utf8")) as GuardianRecord;
    writeRecord(stateDir, { ...record, ...change });
  } catch {
    // no record (not adoptable), or the state dir is gone
  }
}

/** A session as recorded for re-adoption; the size and position come from the guardian itself. */
export interface SessionFacts {
  readonly id: string;
  readonly name: string | null;
  readonly scrollback: number;
  readonly term: string;
  readonly createdAt: number;
  /** The hooked shell and the nonce of its marks (`pty exec`), so a new agent reads them in the replayed tail. */
  readonly shell?: { readonly kind: "bash" | "zsh" | "fish" | "sh"; readonly nonce: string };
}

/** A job as recorded for re-adoption; its offsets come from the guardian and its spill file. */
export interface JobFacts {
  readonly name: string | null;
  readonly mode: "pipe" | "pty";
  readonly spill: string | null;
  /** The guardian writes the spill itself (--job-spill, guardian protocol 5); absent: the agent did. */
  readonly spillByGuardian?: boolean;
  readonly headBytes: number;
  readonly maxBytes: number;
  readonly graceMs: number;
  readonly startedAt: number;
}

/** `<state dir>/guardians`: one JSON file per guardian. */
export function recordsDir(stateDir: string): string {
  return path.join(stateDir, "guardians");
}

function recordFile(stateDir: string, guardianPid: number): string {
  return path.join(recordsDir(stateDir), `${guardianPid}.json`);
}

/** Writes (or rewrites) the record of one guardian. */
export function writeRecord(stateDir: string, record: GuardianRecord): void {
  mkdirSync(recordsDir(stateDir), { recursive: true, mode: 0o700 });
  writeFileSync(recordFile(stateDir, record.guardian.pid), JSON.stringify(record) + "\n", { mode: 0o600 });
}

/** Forgets a guardian that is gone (missing files are fine). */
export function removeRecord(stateDir: string, guardianPid: number): void {
  try {
    rmSync(recordFile(stateDir, guardianPid), { force: true });
  } catch {
    // the state dir is gone or is no directory any more: nothing left to forget (socket-watch.ts)
  }
}

/** Every record that parses; a damaged file is skipped (and named in `damaged`). */
export function readRecords(stateDir: string): { records: GuardianRecord[]; damaged: string[] } {
  const records: GuardianRecord[] = [];
  const damaged: string[] = [];
  let names: string[];
  try {
    names = readdirSync(recordsDir(stateDir));
  } catch {
    return { records, damaged };
  }
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const file = path.join(recordsDir(stateDir), name);
    try {
      const record = JSON.parse(readFileSync(file, "utf8")) as GuardianRecord;
      if (typeof record?.guardian?.pid !== "number" || typeof record?.owner?.pid !== "number") throw new Error("shape");
      records.push(record);
    } catch {
      damaged.push(file);
    }
  }
  return { records, damaged };
}
