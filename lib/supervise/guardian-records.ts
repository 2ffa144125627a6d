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
  rmSync(recordFile(stateDir, guardianPid), { force: true });
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
