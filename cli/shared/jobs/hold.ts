// The foreground part shared by `run --tty` and `fg`: connect, hand this
// terminal over, send the request that attaches, wait for the job to stop
// or end, give the terminal back, and say what happened.
import type { CorralContext } from "../context.ts";
import { ExitStatus } from "../exit-status.ts";
import { reachAgent, reportFailure, type SocketFlag } from "../agent-reach.ts";
import { AgentUnavailableError } from "../../../lib/agent/client/auto-start.ts";
import type { FgRequest, JobInfo, JobStartRequest } from "../../../lib/agent/protocol/messages.ts";
import { lostConnection } from "../connection-lost.ts";
import { JobTerminal } from "./terminal.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import { stoppedLine } from "./format.ts";
import { describeExit } from "../../../lib/core/exit-words.ts";
import { dieIfKilledBy } from "../signal-death.ts";
import { noAgent } from "./no-agent.ts";

/** How a hold ended: the exit status (the job's, 148 when stopped), and the job when it ended while held. */
export interface HoldOutcome {
  readonly status: number;
  /** The job as last seen (null when lost); its exit facts are set when it ended. */
  readonly job: JobInfo | null;
  /** It ended (rather than stopped, or the connection was lost). */
  readonly ended: boolean;
}

/**
 * Runs the attaching request with this terminal; returns how it ended, or
 * null when a failure was already reported.
 */
export async function holdJob(
  ctx: CorralContext,
  flags: SocketFlag,
  request: JobStartRequest | FgRequest,
  /** Said on the connection before the terminal is taken (a remote job's environment plan). */
  before?: (client: AgentClient) => Promise<unknown>,
): Promise<HoldOutcome | null> {
  let client;
  let hold: JobTerminal | undefined;
  try {
    client = await reachAgent(ctx, flags, request.op === "job-start");
    await before?.(client);
    hold = new JobTerminal(client);
    hold.takeTerminal();
    const reply = await client.call(request as JobStartRequest);
    const job: JobInfo = reply.job;
    if ((reply as { attached?: boolean }).attached === false) {
      await hold.release();
      ctx.process.stderr.write(`corral: ${job.id} has finished: ${describeExit(job.exit)}\n`);
      return { status: job.status ?? ExitStatus.corralFailure, job, ended: true };
    }
    if (job.mode === "pty") hold.inputToJob();
    else hold.keepInput();
    const end = await hold.ended;
    await hold.release();
    if (end.kind === "stopped") {
      ctx.process.stderr.write(`\n${stoppedLine(end.job)}\n`);
      return { status: ExitStatus.parked, job: end.job, ended: false };
    }
    if (end.kind === "done") {
      if (end.job.exit !== null) dieIfKilledBy(ctx, hold.forwarded, end.job.exit);
      return { status: end.job.status ?? ExitStatus.corralFailure, job: end.job, ended: true };
    }
    // A remote call's transport cut (ssh killed, network gone): its own fact, 255 as ssh's,
    // with the line that says the job lives on there; never the job's outcome.
    const cause = await lostConnection(client);
    if (cause !== null) {
      reportFailure(ctx, cause);
      return { status: cause.exitStatus, job: null, ended: false };
    }
    ctx.process.stderr.write(`corral: lost the job's terminal: ${end.why}; corral jobs shows its state\n`);
    return { status: ExitStatus.corralFailure, job: null, ended: false };
  } catch (error) {
    await hold?.release();
    if (error instanceof AgentUnavailableError && request.op === "fg") {
      noAgent(ctx);
      return { status: ExitStatus.failure, job: null, ended: false };
    }
    reportFailure(ctx, error);
    return null;
  } finally {
    client?.close();
  }
}
