// `corral run --bg` and `corral run --tty`: a job in the agent. --bg prints
// the job's id at once; --tty holds this terminal for it until it ends
// (its status) or is stopped with Ctrl-Z (148, `[N]+  Stopped  CMD`).
import type { CorralContext } from "./context.ts";
import { reachAgent, reportFailure } from "./agent-reach.ts";
import type { RunJobFlags } from "./job-flags.ts";
import { prepareJob } from "./job-request.ts";
import { holdJob } from "./job-hold.ts";
import type { RunFlags } from "./run-flags.ts";
import { terminalSize } from "./job-terminal.ts";

/** The command function of `run --bg` / `run --tty` (loaded from run-action.ts). */
export async function jobRunAction(this: CorralContext, flags: RunFlags & RunJobFlags, ...argv: string[]): Promise<void> {
  const { request, explain } = await prepareJob(this, flags, argv, flags.tty);
  if (flags.explain) for (const line of explain) this.process.stderr.write(`corral: explain: ${line}\n`);
  if (flags.bg) {
    let client;
    try {
      client = await reachAgent(this, flags);
      const { job } = await client.call({ ...request, ...(flags.tty ? terminalSize() : {}) });
      this.process.stdout.write(`${job.id}\n`);
      if (flags.explain) this.process.stderr.write(`corral: explain: job ${job.id} pid ${job.pid} (${job.backend}, ${job.mode})\n`);
    } catch (error) {
      reportFailure(this, error);
    } finally {
      client?.close();
    }
    return;
  }
  const status = await holdJob(this, flags, { ...request, attach: true, ...terminalSize() });
  if (status !== null) this.process.exitCode = status;
}
