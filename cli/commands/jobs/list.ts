// `corral jobs`: the agent's job table, as rows or JSON. Never starts the
// agent: with none running there are no jobs (but what a dead agent left
// behind is named, with the way to clean it up).
import type { CorralContext } from "../../shared/context.ts";
import { chosenSocket, withAgent } from "../../shared/agent-reach.ts";
import { wantsRemote } from "../../shared/socket-flag.ts";
import { lostNotes, orphansNote } from "./orphans-note.ts";
import { errorLine } from "../../shared/error-line.ts";
import type { JobsFlags } from "./flags.ts";
import { jobRow } from "../../shared/jobs/format.ts";

/** The command function of `corral jobs`. */
export async function jobsAction(this: CorralContext, flags: JobsFlags): Promise<void> {
  const print = (jobs: readonly import("../../../lib/jobs/job-info.ts").JobInfo[]) => {
    if (flags.json) this.process.stdout.write(`${JSON.stringify({ jobs })}\n`);
    else for (const job of jobs) this.process.stdout.write(`${jobRow(job)}\n`);
  };
  await withAgent(this, flags, async (client) => {
    const { jobs } = await client.call({ op: "jobs" });
    print(jobs);
    // The notes read this machine's state dir: about a remote agent they would say nothing true.
    if (!wantsRemote(this, flags)) for (const note of lostNotes(chosenSocket(this, flags), "job")) this.process.stderr.write(errorLine(note));
  }, {
    start: false,
    whenAbsent: () => {
      print([]);
      const note = wantsRemote(this, flags) ? null : orphansNote(chosenSocket(this, flags));
      if (note !== null) this.process.stderr.write(errorLine(note));
    },
  });
}
