// The foreground part shared by `run --tty` and `fg`: connect, hand this
// terminal over, send the request that attaches, wait for the job to stop
// or end, give the terminal back, and say what happened.
import type { CorralContext } from "./context.ts";
import { ExitStatus } from "./exit-status.ts";
import { reachAgent, reportFailure, type SocketFlag } from "./agent-reach.ts";
import { AgentUnavailableError } from "../lib/agent/auto-start.ts";
import type { FgRequest, JobInfo, JobStartRequest } from "../lib/agent/protocol.ts";
import { TerminalHold } from "./job-terminal.ts";
import { describeEnd, stoppedLine } from "./job-format.ts";
import { dieIfKilledBy } from "./signal-death.ts";

/**
 * Runs the attaching request with this terminal; returns the exit status
 * (the job's, 148 when stopped), or null when a failure was already reported.
 */
export async function holdJob(ctx: CorralContext, flags: SocketFlag, request: JobStartRequest | FgRequest): Promise<number | null> {
  let client;
  let hold: TerminalHold | undefined;
  try {
    client = await reachAgent(ctx, flags, request.op === "job-start");
    hold = new TerminalHold(client);
    hold.takeTerminal();
    const reply = await client.call(request as JobStartRequest);
    const job: JobInfo = reply.job;
    if ((reply as { attached?: boolean }).attached === false) {
      await hold.release();
      ctx.process.stderr.write(`corral: ${job.id} has finished: ${describeEnd(job.exit)}\n`);
      return job.status ?? ExitStatus.corralFailure;
    }
    if (job.mode === "pty") hold.inputToJob();
    else hold.keepInput();
    const end = await hold.ended;
    await hold.release();
    if (end.kind === "stopped") {
      ctx.process.stderr.write(`\n${stoppedLine(end.job)}\n`);
      return ExitStatus.parked;
    }
    if (end.kind === "done") {
      if (end.job.exit !== null) dieIfKilledBy(ctx, hold.forwarded, end.job.exit);
      return end.job.status ?? ExitStatus.corralFailure;
    }
    ctx.process.stderr.write(`corral: lost the job's terminal: ${end.why}; corral jobs shows its state\n`);
    return ExitStatus.corralFailure;
  } catch (error) {
    await hold?.release();
    if (error instanceof AgentUnavailableError && request.op === "fg") {
      ctx.process.stderr.write("corral: no agent is running, so there are no jobs\n");
      return ExitStatus.failure;
    }
    reportFailure(ctx, error);
    return null;
  } finally {
    client?.close();
  }
}
