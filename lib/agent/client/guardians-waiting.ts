// Whether guardians left by an agent that is gone wait for a new one
// (issue 11): then a command that would not start an agent for itself
// (`jobs`, `pty list`, `wait`) starts one, which re-adopts them, so the
// sessions and jobs show up again after a crash on the next command. The
// same for jobs whose end a previous agent wrote down (lib/jobs/done-jobs.ts).
import { readdirSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { readRecords } from "../../supervise/guardian-records.ts";
import { stillRuns } from "../../proc/identity.ts";

/** True when `stateDir` holds a record of a live adoptable guardian whose agent is gone. */
export function guardiansAwaitAgent(stateDir: string): boolean {
  try {
    if (readdirSync(path.join(stateDir, "jobs-done")).length > 0) return true;
  } catch {
    // none written
  }
  try {
    return readRecords(stateDir).records.some((r) =>
      r.adoptable === true && r.lost === undefined && r.owner.pid !== process.pid && !stillRuns(r.owner) &&
      (stillRuns(r.guardian) || (r.exited !== undefined && r.jobFacts !== undefined))
    );
  } catch {
    return false;
  }
}
