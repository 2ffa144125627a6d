// `corral run --bg` and `corral run --tty`: a job in the agent. --bg prints
// the job's id at once; --tty holds this terminal for it until it ends
// (its status) or is stopped with Ctrl-Z (148, `[N]+  Stopped  CMD`).
// --facts: written when a --tty job ends (as `run` writes it); refused with
// --bg, which returns before the job ends (collect --job %N --follow --facts
// FILE waits for the end and writes them).
import type { CorralContext } from "../../shared/context.ts";
import { reachAgent, reportFailure } from "../../shared/agent-reach.ts";
import type { RunJobFlags } from "../../shared/jobs/flags.ts";
import { prepareJob } from "../../shared/jobs/request.ts";
import { holdJob } from "../../shared/jobs/hold.ts";
import type { RunFlags } from "../../shared/child/flags.ts";
import { terminalSize } from "../../shared/terminal-hold.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { wantsRemote } from "../../shared/socket-flag.ts";
import { checkFactsTarget, writeFacts } from "../../shared/facts-output.ts";
import { announceWithheld } from "../../shared/env-dropped-note.ts";
import { announceRemoteEnv } from "../../shared/remote-env-plan.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";

/** The command function of `run --bg` / `run --tty` (loaded from cli/commands/run/impl.ts). */
export async function jobRunAction(this: CorralContext, flags: RunFlags & RunJobFlags, ...argv: string[]): Promise<void> {
  if (flags.bg && flags.facts !== undefined) {
    throw new UsageError(
      "--facts does not apply to run --bg: corral returns before the job ends; collect --job %N --follow --facts FILE waits for its end and writes them",
    );
  }
  // The terminal (stdout) is the job's, as with plain run: --facts - is refused.
  const factsTarget = checkFactsTarget(flags.facts, true);
  const remote = wantsRemote(this, flags);
  const { request, explain, dropped, quiet } = await prepareJob(this, flags, argv, flags.tty, remote);
  // Remote: the environment is built there; its plan says what it withholds, once connected.
  const farEnv = remote ? (client: AgentClient) => announceRemoteEnv(this, client, flags, request, { explain: flags.explain, quiet }) : null;
  if (flags.explain) for (const line of explain) this.process.stderr.write(`corral: explain: ${line}\n`);
  announceWithheld(this, dropped, quiet);
  if (flags.bg) {
    let client;
    try {
      client = await reachAgent(this, flags);
      await farEnv?.(client);
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
  const held = await holdJob(this, flags, { ...request, attach: true, ...terminalSize() }, farEnv ?? undefined);
  if (held === null) return;
  this.process.exitCode = held.status;
  const exit = held.ended ? held.job?.exit ?? null : null;
  if (exit === null) {
    // Stopped (Ctrl-Z, 148) or lost: it has not ended, so there are no facts to write yet.
    if (factsTarget !== undefined) {
      // A job that ends under fg leaves the table at once; one continued with bg stays until reaped.
      const id = held.job?.id ?? "%N";
      const how = held.job === null ? "the connection was lost" : "stopped";
      this.process.stderr.write(
        `corral: --facts ${flags.facts}: not written, ${id} has not ended (${how}); corral bg ${id}, then corral collect --job ${id} --follow --facts FILE writes them when it ends\n`,
      );
    }
    return;
  }
  if (factsTarget !== undefined && flags.facts !== undefined) {
    await writeFacts(this, factsTarget, flags.facts, exit);
  }
}
