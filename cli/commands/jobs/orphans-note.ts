// With no agent running, `jobs` has no table to show; but an agent that died
// (SIGKILL, OOM) may have left guardians and their processes behind, which
// only `corral reap` cleans up. Saying nothing would hide them.
import path from "node:path";
import process from "node:process";
import { readRecords } from "../../../lib/supervise/guardian-records.ts";
import { stillRuns } from "../../../lib/proc/identity.ts";

/** One stderr line naming what a dead agent left, or null when nothing is left. */
export function orphansNote(socket: string): string | null {
  let records;
  try {
    records = readRecords(path.dirname(socket)).records;
  } catch {
    return null;
  }
  const left = records.filter((r) => r.owner.pid !== process.pid && !stillRuns(r.owner));
  if (left.length === 0) return null;
  const jobs = left.filter((r) => r.job !== null).map((r) => `%${r.job}`);
  const sessions = left.length - jobs.length;
  const what = [
    jobs.length > 0 ? `${jobs.length} job${jobs.length === 1 ? "" : "s"} (${jobs.join(", ")})` : "",
    sessions > 0 ? `${sessions} session${sessions === 1 ? "" : "s"}` : "",
  ].filter((s) => s !== "").join(" and ");
  const agents = [...new Set(left.map((r) => r.owner.pid))].join(", ");
  return `no agent is running; ${what} of an agent that died (pid ${agents}) may still run: corral reap ends them and reports what it did`;
}

/**
 * One stderr line per session or job a previous agent held that the new
 * agent could not re-adopt (issue 11), with why: never silently dropped.
 * `corral reap` ends what is left of them and forgets them.
 */
export function lostNotes(socket: string, kind: "session" | "job"): string[] {
  let records;
  try {
    records = readRecords(path.dirname(socket)).records;
  } catch {
    return [];
  }
  return records
    .filter((r) => r.lost !== undefined && (kind === "session" ? r.session !== undefined : r.job !== null))
    .map((r) => {
      const id = kind === "session" ? `session ${r.session?.id}` : `job %${r.job}`;
      const name = (kind === "session" ? r.session?.name : r.jobFacts?.name) ?? null;
      return `lost ${id}${name === null ? "" : ` (${name})`}: ${r.lost}; corral reap ends what is left of it`;
    });
}
