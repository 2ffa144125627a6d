// The invariants a chaos round must keep, each checked on what the round
// ran and what corral reported: spills byte-identical or their loss
// reported exactly, exits true or reported unknown with a reason (never
// invented), nothing of the run left after `reap --all`, the agent's screen
// answered within its bound, its memory back under its budget.
import { readFileSync } from "node:fs";
import type { Ran } from "./cli.ts";
import { sha256, type ClientItem, type Session, type SpillJob } from "./workload.ts";

/** Counts checks and collects violations (each names its invariant). */
export class Verdicts {
  checked = 0;
  readonly violations: string[] = [];

  check(ok: boolean, invariant: string, detail: () => string): void {
    this.checked++;
    if (!ok) this.violations.push(`${invariant}: ${detail()}`);
  }
}

/** An exit as corral reports it (exit-facts.schema.json). */
export interface ExitFacts {
  readonly code: number | null;
  readonly signal: string | null;
  readonly supervisorLost?: { readonly cause: string };
  readonly unknownWhy?: string;
}

/** A job row of `jobs --json` (job.schema.json), the fields checked here. */
export interface JobRow {
  readonly name: string | null;
  readonly state: string;
  readonly status: number | null;
  readonly exit: ExitFacts | null;
  readonly bytes: number;
  readonly gap?: { readonly from: number; readonly to: number };
  readonly spillLost?: { readonly from: number | null; readonly error: string };
}

const unknownWithReason = (exit: ExitFacts | null): boolean =>
  exit !== null && exit.code === null && exit.signal === null && (exit.supervisorLost !== undefined || exit.unknownWhy !== undefined);

function readOr(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    return Buffer.alloc(0);
  }
}

/** The spill holds the program's bytes: all of them, or a prefix whose end is reported exactly. */
export function checkSpill(v: Verdicts, job: SpillJob, row: JobRow | undefined): void {
  const got = readOr(job.spill);
  const prefix = got.length <= job.expected.length && job.expected.subarray(0, got.length).equals(got);
  v.check(prefix, "spill bytes", () => `${job.name}: the spill (${got.length} bytes) is not a prefix of what the program wrote`);
  if (!prefix || row === undefined) return;
  if (got.length === job.expected.length) {
    v.check(sha256(got) === sha256(job.expected), "spill sha256", () => `${job.name}: sha256 differs`);
    return;
  }
  const lostAt = row.spillLost?.from ?? row.gap?.from;
  const supervisorLost = row.exit?.supervisorLost !== undefined;
  v.check(lostAt === got.length || supervisorLost, "spill loss reported", () =>
    `${job.name}: the spill holds ${got.length} of ${job.expected.length} bytes; reported: ${JSON.stringify({ spillLost: row.spillLost, gap: row.gap, exit: row.exit })}`);
  if (job.onFullDisk || lostAt === undefined) return;
  v.check(false, "spill loss without cause", () => `${job.name}: the spill stopped at ${lostAt} though its disk had room`);
}

/**
 * A job's end: its own status, or unknown with the reason (a guardian killed
 * by the run must not yield an invented one). A job whose guardian the run
 * killed and whose agent died before it learned of that may be reported
 * lost instead (`corral: lost job %N (name): ...` from `corral jobs`).
 */
export function checkJobExit(v: Verdicts, job: SpillJob, row: JobRow | undefined, lostNotes: string): void {
  if (row === undefined && job.guardianKilled && lostNotes.includes(`(${job.name}): `)) {
    v.check(true, "job listed and done", () => "");
    return;
  }
  v.check(row !== undefined && row.state === "done", "job listed and done", () => `${job.name}: ${JSON.stringify(row)}; ${lostNotes.trim()}`);
  if (row === undefined || row.state !== "done") return;
  const truthful = row.status === job.status || unknownWithReason(row.exit);
  v.check(truthful, "job exit", () => `${job.name}: status ${row.status} (${JSON.stringify(row.exit)}), the program exits ${job.status}`);
}

/** A session's end: bash says 5, vim 0, the flood is hung up; unknown only with the reason. */
export function checkSessionExit(v: Verdicts, s: Session, closed: Ran, exit: ExitFacts | null, lostNotes: string): void {
  // Its guardian killed by the run, then the agent before it learned of it: reported lost, with why (`pty list`).
  if (exit === null && s.guardianKilled && lostNotes.includes(`(${s.name}): `)) {
    v.check(true, "session closed", () => "");
    return;
  }
  v.check(closed.code === 0 && exit !== null, "session closed", () => `${s.name}: pty close exit ${closed.code}: ${closed.stderr.trim()}`);
  if (exit === null) return;
  if (unknownWithReason(exit)) {
    v.check(true, "session exit", () => "");
    return;
  }
  v.check(exit.code !== null || exit.signal !== null, "session exit", () => `${s.name}: neither a status nor a reason: ${JSON.stringify(exit)}`);
  if (s.guardianKilled) {
    // Its guardian was SIGKILLed before it could report: a status here would be invented,
    // unless the program had already ended (bash and vim end by themselves).
    v.check(s.program !== "flood", "session exit not invented", () => `${s.name}: its guardian was killed, yet ${JSON.stringify(exit)}`);
    return;
  }
  const want = s.program === "bash" ? 5 : s.program === "vim" ? 0 : null;
  if (want !== null) v.check(exit.code === want, "session exit", () => `${s.name}: ${JSON.stringify(exit)}, the program exits ${want}`);
  else v.check(exit.signal !== null || exit.code !== null, "session exit", () => `${s.name}: ${JSON.stringify(exit)}`);
}

/** A client that was not killed gives the true status; one whose agent went away may say so (125, a corral: line). */
export function checkClient(v: Verdicts, item: ClientItem, ran: Ran, jobRow: JobRow | undefined, lostNotes: string): void {
  if (item.killed) return;
  const said = ran.code === 125 && /corral: /.test(ran.stderr);
  if (item.kind === "collect") {
    v.check(ran.code === item.expectStatus || said, "collect status", () => `${item.label}: exit ${ran.code}, want ${item.expectStatus}: ${ran.stderr.trim().slice(0, 300)}`);
    return;
  }
  const want = jobRow?.status ?? null;
  const lost = jobRow === undefined && item.job !== undefined && lostNotes.includes(`(${item.job.name}): `) && /corral: /.test(ran.stderr);
  const unknown = unknownWithReason(jobRow?.exit ?? null) || lost;
  v.check(ran.code === want || said || unknown, "wait status", () => `${item.label}: exit ${ran.code}, the job's status ${want}: ${ran.stderr.trim().slice(0, 300)}`);
}
