// With no agent running, `jobs` has no table to show; but an agent that died
// (SIGKILL, OOM) may have left guardians and their processes behind, which
// only `corral reap` cleans up. Saying nothing would hide them.
import path from "node:path";
import process from "node:process";
import { readRecords } from "../../../lib/jobs/guardian-records.ts";
import { stillRuns } from "../../../lib/jobs/proc-identity.ts";

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
