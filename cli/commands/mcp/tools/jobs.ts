// The job tools: job_start runs a command in the agent as a job (it keeps
// running after this call and this server; `corral jobs` shows it), job_read
// reads its output from a byte offset and says the next one, job_wait waits
// for its end within the cap (done:false and a cursor otherwise), job_stop
// ends its whole tree. Output is bounded in the agent and every byte goes to
// the job's spill file, so a read below the kept window is still served.
import { withheldNote } from "./withheld-note.ts";
import { Buffer } from "node:buffer";
import { mkdirSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { stateDirPath } from "../../../../lib/agent/client/state-dir.ts";
import type { JobInfo } from "../../../../lib/agent/protocol/messages.ts";
import { agentCall } from "../agent-call.ts";
import { pause, waitSlice } from "../cursors.ts";
import { prepareLaunch } from "../launch.ts";
import { cleanText } from "../model-text.ts";
import { SERVER_ENDING, type Tool, type ToolAnswer, type ToolCall, ToolError } from "../tool.ts";
import { bool, COMMAND_INPUT, integer, JOB, nullable, object, RECEIPT, SCRUBBED, str, WAIT_INPUT, WAIT_OUTPUT } from "./schema-parts.ts";
import { DEFAULT_GRACE_MS } from "../../../../lib/core/defaults.ts";

const DEFAULT_TIMEOUT_MS = 30 * 60_000;
let spilled = 0;

const jobOf = (j: JobInfo) => ({
  id: j.id,
  name: j.name,
  state: j.state,
  pid: j.pid,
  argv: [...j.argv],
  exit: j.exit === null ? null : { code: j.exit.code, signal: j.exit.signal, timedOut: j.exit.timedOut, forced: j.exit.forced, durationMs: j.exit.durationMs, outputComplete: j.exit.outputComplete },
  status: j.status,
  bytes: j.bytes,
  spill: j.spill,
});
const jobLine = (j: ReturnType<typeof jobOf>) => `job ${j.id}${j.name === null ? "" : ` (${j.name})`}: ${j.argv.join(" ")}, pid ${j.pid}, ${j.state}${j.status === null ? "" : ` status ${j.status}`}, ${j.bytes} bytes of output${j.spill === null ? "" : ` (all in ${j.spill})`}`;
const jobInput = { job: str("Job id (%N or N) or name") };

function jobRef(input: Record<string, unknown>): string {
  if (typeof input.job === "string" && input.job !== "") return input.job;
  if (typeof input.job === "number") return String(input.job);
  throw new ToolError("bad_request", '"job" is required: %N from job_start, or the job\'s name');
}

export const jobStartTool: Tool = {
  name: "job_start",
  title: "Start a background job",
  description: "Starts a command as a job in the corral agent: it keeps running after this call and this server (`corral jobs` lists it). Its output is kept bounded, every byte in its spill file; read it with job_read, wait with job_wait, end it with job_stop.",
  readOnly: false,
  starts: true,
  inputSchema: object({ ...COMMAND_INPUT, name: str("A name to refer to it by"), spill: bool("Keep every byte in a file (default true)") }),
  outputSchema: object({ job: JOB, scrubbed: SCRUBBED }, ["job", "scrubbed"]),
  async answer(input, call) {
    const launch = prepareLaunch(input, call, true);
    let spill: string | undefined;
    if (input.spill !== false) {
      const dir = path.join(stateDirPath(call.env), "mcp");
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      spill = path.join(dir, `job-${process.pid}-${++spilled}.log`);
    }
    const keep = Math.ceil(call.options.budget / 2);
    const reply = await agentCall(call, {
      op: "job-start",
      argv: launch.argv,
      tty: false,
      cwd: typeof input.cwd === "string" ? input.cwd : process.cwd(),
      env: launch.env,
      headBytes: keep,
      maxBytes: Math.max(keep, 1024 * 1024),
      graceMs: call.config.graceMs,
      ...(spill !== undefined ? { spill } : {}),
      ...(typeof input.name === "string" ? { name: input.name } : {}),
    });
    const job = jobOf(reply.job);
    const note = withheldNote(launch.scrubbed);
    return { structured: { job, scrubbed: [...launch.scrubbed] }, text: `started ${jobLine(job)}${note}` };
  },
};

export const jobReadTool: Tool = {
  name: "job_read",
  title: "Read a job's output",
  description: "Reads a job's output from a byte `offset` (default 0), at most the budget, cut after a whole line when it can be; answers the text and `nextOffset` to read on from. `eof` once the job ended and everything was read.",
  readOnly: true,
  starts: false,
  inputSchema: object({ ...jobInput, offset: integer("Byte offset to read from (default 0)"), maxBytes: integer("Read at most this many bytes (default: the server's budget)", 1) }, ["job"]),
  outputSchema: object({
    job: JOB,
    offset: integer("where this read started"),
    nextOffset: integer("where the next read starts"),
    text: str("the output read, shaped for a model (ANSI removed, redraws collapsed, long lines clipped)"),
    eof: bool("the job ended and nothing is left past nextOffset"),
    lost: nullable(object({ retainedFrom: integer("the first offset still held"), spill: nullable(str("spill file")) }, ["retainedFrom", "spill"])),
  }, ["job", "offset", "nextOffset", "text", "eof", "lost"]),
  async answer(input, call) {
    const job = jobRef(input);
    const offset = typeof input.offset === "number" ? input.offset : 0;
    const max = typeof input.maxBytes === "number" ? input.maxBytes : call.options.budget;
    const reply = await agentCall(call, { op: "job-read", job, from: offset, maxBytes: max });
    const info = jobOf(reply.job);
    const read = reply.read;
    let text = "";
    let nextOffset = offset;
    let lost: { retainedFrom: number; spill: string | null } | null = null;
    if (read.kind === "data") {
      let bytes = Buffer.from(read.base64 ?? "", "base64");
      nextOffset = read.nextOffset;
      // A full read cut mid-line stops after its last whole line; the rest comes next time.
      const lastFeed = bytes.lastIndexOf(0x0a);
      if (bytes.length >= max && lastFeed >= 0 && lastFeed < bytes.length - 1) {
        nextOffset = offset + lastFeed + 1;
        bytes = bytes.subarray(0, lastFeed + 1);
      }
      text = cleanText(bytes.toString("utf8"), call.options.maxLineChars).text;
    } else if (read.kind === "lost") {
      lost = { retainedFrom: read.retainedFrom, spill: read.spill };
      nextOffset = read.retainedFrom;
      text = `[bytes ${offset}..${read.retainedFrom} are no longer held and there is no spill file; read on from ${read.retainedFrom}]`;
    }
    // The end of a finished job's output is the end: no need for one more read to hear "eof".
    const eof = read.kind === "eof" || (info.state === "done" && nextOffset === info.bytes);
    const structured = { job: info, offset, nextOffset, text, eof, lost };
    const head = `${jobLine(info)}; bytes ${offset}..${nextOffset}${eof ? " (end)" : ""}`;
    return { structured, text: `${head}\n---\n${text}` };
  },
};

interface PendingJobWait {
  readonly job: string;
  readonly deadline: number;
}

export const jobWaitTool: Tool = {
  name: "job_wait",
  title: "Wait for a job to end",
  description: "Waits until the job ends (or `timeoutMs` passes), within the server's wait cap: done:false with a `cursor` when the cap came first; pass it back to keep waiting. Answers the job with its exit facts; read its output with job_read. Cancelling ends only the wait.",
  readOnly: true,
  starts: false,
  inputSchema: object({ ...jobInput, timeoutMs: integer(`Give up after this long in all (default ${DEFAULT_TIMEOUT_MS} ms)`, 1), ...WAIT_INPUT }),
  outputSchema: object({ ...WAIT_OUTPUT, timedOut: bool("timeoutMs passed before the job ended"), job: JOB }, ["done", "job"]),
  async answer(input, call) {
    let pending: PendingJobWait;
    if (typeof input.cursor === "string") pending = call.cursors.take<PendingJobWait>("job_wait", input.cursor);
    else pending = { job: jobRef(input), deadline: Date.now() + (typeof input.timeoutMs === "number" ? input.timeoutMs : DEFAULT_TIMEOUT_MS) };
    return await waitForJob(call, pending);
  },
};

async function waitForJob(call: ToolCall, pending: PendingJobWait): Promise<ToolAnswer> {
  const slice = waitSlice(pending.deadline, call.options.waitCapMs);
  const until = Date.now() + slice.ms;
  const expired = new AbortController();
  const timer = setTimeout(() => expired.abort(), slice.ms);
  const stopWaiting = AbortSignal.any([expired.signal, call.signal, call.ending]);
  let info = (await agentCall(call, { op: "job-read", job: pending.job, from: 0, maxBytes: 1 })).job;
  let lastProgress = Date.now();
  // Its own connection: closing it ends the agent's side of a read still waiting.
  const own = await call.waitingAgent().catch((error: Error) => {
    throw new ToolError("agent_gone", `the agent could not be reached: ${error.message}`);
  });
  try {
    while (info.state !== "done" && !stopWaiting.aborted) {
      // Wakes on new output or the end; the pause keeps a chatty job from costing a round trip per chunk.
      const read = agentCall(call, { op: "job-read", job: pending.job, from: info.bytes, maxBytes: 1, wait: true }, own);
      read.catch(() => {});
      const next = await Promise.race([read, pause(until - Date.now(), stopWaiting).then(() => null)]);
      if (next === null) break;
      info = next.job;
      if (Date.now() - lastProgress >= call.options.progressEveryMs) {
        lastProgress = Date.now();
        call.progress(info.bytes, `job ${info.id}: ${info.state}, ${info.bytes} bytes of output`);
      }
      if (info.state !== "done") await pause(200, stopWaiting);
    }
  } finally {
    clearTimeout(timer);
    own.close();
  }
  if (call.signal.aborted) throw new ToolError("cancelled", `the wait on job ${info.id} was cancelled; the job keeps running`);
  if (info.state === "done") {
    // The store is closed (spill complete) once a read at its end says eof.
    const job = jobOf(info);
    return { structured: { done: true, timedOut: false, job }, text: `ended: ${jobLine(job)}` };
  }
  const job = jobOf(info);
  if (slice.capped || call.ending.aborted) {
    const cursor = call.cursors.issue("job_wait", pending);
    const text = call.ending.aborted
      ? `${SERVER_ENDING}; the job keeps running: ${jobLine(job)}`
      : `still running: ${jobLine(job)}; call job_wait with cursor ${cursor} to keep waiting`;
    return { structured: { done: false, cursor, job }, text };
  }
  return { structured: { done: true, timedOut: true, job }, text: `timed out waiting: ${jobLine(job)}` };
}

export const jobStopTool: Tool = {
  name: "job_stop",
  title: "Stop a job",
  description: "Ends the job's whole process tree (SIGTERM, the grace, SIGKILL) and answers once it is gone, with the receipt. A job that already ended is left as it is.",
  readOnly: false,
  starts: false,
  inputSchema: object({ ...jobInput, graceMs: integer(`Between SIGTERM and SIGKILL (default ${DEFAULT_GRACE_MS})`) }, ["job"]),
  outputSchema: object({ job: JOB, stopped: bool("false: it had already ended"), receipt: RECEIPT }, ["job", "stopped", "receipt"]),
  async answer(input, call) {
    const reply = await agentCall(call, { op: "job-stop", job: jobRef(input), ...(typeof input.graceMs === "number" ? { graceMs: input.graceMs } : {}) });
    const job = jobOf(reply.job);
    const receipt = reply.receipt === null ? null : { status: reply.receipt.status, forced: reply.receipt.forced, reason: reply.receipt.reason };
    const how = reply.stopped ? `stopped (${receipt?.status ?? "no receipt"}${receipt?.forced ? ", SIGKILL needed" : ""})` : "had already ended";
    return { structured: { job, stopped: reply.stopped, receipt }, text: `${how}: ${jobLine(job)}` };
  },
};
