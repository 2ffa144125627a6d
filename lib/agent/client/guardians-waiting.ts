// Whether guardians left by an agent that is gone wait for a new one
// (issue 11): then a command that would not start an agent for itself
// (`jobs`, `pty list`, `wait`) starts one, which re-adopts them, so the
// sessions and jobs show up again after a crash on the next command. The
// same for jobs and sessions whose end a previous agent wrote down
// (lib/jobs/done-jobs.ts, lib/agent/server/session-ends.ts), for sessions
// whose guardian is gone while no agent held them (listed as ended, with
// why), and for jobs whose guardian is gone (reported lost, with why).
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
    if (readdirSync(path.join(stateDir, "sessions-done")).length > 0) return true;
  } catch {
    // none written
  }
  try {
    return readRecords(stateDir).records.some((r) =>
      r.adoptable === true && r.lost === undefined && r.owner.pid !== process.pid && !stillRuns(r.owner) &&
      // A session's guardian gone while no agent held it: a new agent lists it as ended, with why.
      (stillRuns(r.guardian) || r.jobFacts !== undefined || r.session !== undefined)
    );
  } catch {
    return false;
  }
}
