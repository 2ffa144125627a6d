// Whether guardians left by an agent that is gone wait for a new one
// (issue 11): then a command that would not start an agent for itself
// (`jobs`, `pty list`, `wait`) starts one, which re-adopts them, so the
// sessions and jobs show up again after a crash on the next command.
import process from "node:process";
import { readRecords } from "../../supervise/guardian-records.ts";
import { stillRuns } from "../../proc/identity.ts";

/** True when `stateDir` holds a record of a live adoptable guardian whose agent is gone. */
export function guardiansAwaitAgent(stateDir: string): boolean {
  try {
    return readRecords(stateDir).records.some((r) =>
      r.adoptable === true && r.lost === undefined && r.owner.pid !== process.pid && !stillRuns(r.owner) && stillRuns(r.guardian)
    );
  } catch {
    return false;
  }
}
