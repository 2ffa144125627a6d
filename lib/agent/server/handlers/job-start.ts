// `job-start`: runs a command as a job in the agent (run --bg, run --tty).
// With `attach`, this connection becomes the job's terminal before anything
// of its output could be missed (the stored output is replayed from 0).
import process from "node:process";
import type { Socket } from "node:net";
import { startJob } from "../../../jobs/start-job.ts";
import { clampSize, type AgentContext } from "../agent-context.ts";
import { JobTerminal, type AttachMode } from "../job-terminal.ts";
import type { JobStartRequest, ReplyBodies } from "../../protocol/messages.ts";
import { asJobError } from "./job-errors.ts";
import { prepareJobRecording, recordJob } from "../job-recording.ts";

/** The connection side of a job's terminal (lib/agent/server/connection.ts implements it). */
export interface JobTerminalTarget {
  readonly socket: Socket;
  /** Switches the connection to this mode once the reply is written. */
  attachMode(mode: AttachMode): void;
}

/** Starts the job; replies with its row. */
export async function handleJobStart(
  ctx: AgentContext,
  request: JobStartRequest,
  target: JobTerminalTarget,
): Promise<ReplyBodies["job-start"]> {
  const env = request.env ?? {};
  const cols = clampSize(request.cols ?? ctx.defaults.cols);
  const rows = clampSize(request.rows ?? ctx.defaults.rows);
  const recorder = request.record === undefined || !request.tty
    ? undefined
    : await prepareJobRecording(request.record, request.argv, cols, rows, env.TERM ?? ctx.defaults.term);
  // A terminal attaching as the job starts gets its output from the first
  // byte: the client asks the store to keep nothing (it keeps its own copy),
  // so what arrives before the terminal is wired is held here meanwhile.
  const early: Uint8Array[] = [];
  let earlyOutput = request.attach === true ? (bytes: Uint8Array) => void early.push(bytes) : undefined;
  let job;
  try {
    job = await startJob(ctx.jobs, {
      argv: request.argv,
      name: request.name ?? null,
      mode: request.tty ? "pty" : "pipe",
      cwd: request.cwd ?? process.cwd(),
      env: request.tty && env.TERM === undefined ? { ...env, TERM: ctx.defaults.term } : env,
      cols,
      rows,
      graceMs: request.graceMs,
      stateDir: ctx.stateDir,
      ...(ctx.defaults.guardian !== undefined ? { guardian: ctx.defaults.guardian } : {}),
      ...(ctx.defaults.orphanWaitMs !== undefined ? { orphanWaitMs: ctx.defaults.orphanWaitMs } : {}),
      headBytes: request.headBytes,
      maxBytes: request.maxBytes,
      spill: request.spill ?? null,
      ...(earlyOutput === undefined ? {} : { firstOutputListener: (bytes: Uint8Array) => earlyOutput?.(bytes) }),
    });
  } catch (error) {
    await recorder?.end();
    throw asJobError(error);
  }
  if (recorder !== undefined) {
    // What the job wrote before it returned went only to `early`: the
    // recording starts with it, or its first screen is missing.
    for (const bytes of early) recorder.output(bytes);
    recordJob(job, recorder);
  }
  if (request.attach === true) {
    earlyOutput = undefined;
    target.attachMode(new JobTerminal(job, ctx.jobs, target.socket, 0, request.graceMs, early));
  }
  return { job: ctx.jobs.info(job) };
}
