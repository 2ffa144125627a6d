// `corral fg` and `corral bg`. fg hands this terminal to the job (see
// cli/shared/jobs/hold.ts); bg continues a stopped job with no terminal. A malformed id
// is refused here before the agent is asked (exit 2).
import type { CorralContext } from "../../shared/context.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { withAgent } from "../../shared/agent-reach.ts";
import type { FgFlags } from "./flags.ts";
import { commandLine } from "../../shared/jobs/format.ts";
import { holdJob } from "../../shared/jobs/hold.ts";
import { noAgent } from "../../shared/jobs/no-agent.ts";
import { terminalSize } from "../../shared/terminal-hold.ts";
import { JobIdError, parseJobRef } from "../../../lib/jobs/job-id.ts";

function checkedId(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  try {
    parseJobRef(id);
  } catch (error) {
    if (error instanceof JobIdError) throw new UsageError(error.message);
    throw error;
  }
  return id;
}

/** The command function of `corral fg`. */
export async function fgAction(this: CorralContext, flags: FgFlags, id?: string): Promise<void> {
  const job = checkedId(id);
  const held = await holdJob(this, flags, { op: "fg", ...(job === undefined ? {} : { job }), ...terminalSize() });
  if (held !== null) this.process.exitCode = held.status;
}

/** The command function of `corral bg`. */
export async function bgAction(this: CorralContext, flags: FgFlags, id?: string): Promise<void> {
  const job = checkedId(id);
  await withAgent(this, flags, async (client) => {
    const reply = await client.call({ op: "bg", ...(job === undefined ? {} : { job }) });
    const info = reply.job;
    const note = info.state === "done" ? "  (it has finished)" : "";
    this.process.stdout.write(`[${info.number}]${info.mark ?? " "} ${commandLine(info.argv)} &${note}\n`);
  }, { start: false, whenAbsent: () => noAgent(this) });
}
