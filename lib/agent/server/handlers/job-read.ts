// `job-read`: a job's output at a byte offset, never consumed. Below the
// retained window the spill file answers when there is one; without it the
// reply says `lost` and from where the window resumes. With `wait` it waits
// for bytes beyond the offset (or the job's end): `collect --job --follow`.
import { Buffer } from "node:buffer";
import type { AgentContext } from "../agent-context.ts";
import { bytesFrame } from "../../protocol/frames.ts";
import { AgentError, type JobReadReply, type JobReadRequest, type ReplyBodies } from "../../protocol/messages.ts";
import type { JobTerminalTarget } from "./job-start.ts";
import { resolveJob } from "./job-errors.ts";

const DEFAULT_READ_BYTES = 1024 * 1024;

/** Reads one chunk (or the end) of a job's output. */
export async function handleJobRead(
  ctx: AgentContext,
  request: JobReadRequest,
  signal: AbortSignal,
  target: JobTerminalTarget,
): Promise<ReplyBodies["job-read"]> {
  const job = resolveJob(ctx, request.job);
  const { store } = job;
  if (request.from > store.totalBytes) {
    throw new AgentError("bad_request", `--from ${request.from} is past the end of %${job.id}'s output (${store.totalBytes} bytes so far)`);
  }
  if (request.wait === true && request.from === store.totalBytes && !store.closed) {
    await new Promise<void>((resolve) => {
      signal.addEventListener("abort", () => resolve(), { once: true });
      void store.whenBeyond(request.from).then(resolve);
    });
  }
  const read = await store.readThrough(request.from, request.maxBytes ?? DEFAULT_READ_BYTES);
  let reply: JobReadReply;
  if (read.kind === "data") {
    if (request.raw === true) {
      // Ahead of the reply on the same socket: the client has the bytes when the reply arrives.
      if (!target.socket.destroyed) target.socket.write(bytesFrame(read.bytes));
      reply = { kind: "data", offset: read.offset, nextOffset: read.nextOffset };
    } else {
      reply = { kind: "data", offset: read.offset, nextOffset: read.nextOffset, base64: Buffer.from(read.bytes).toString("base64") };
    }
  } else if (read.kind === "lost") {
    reply = { kind: "lost", offset: read.offset, retainedFrom: read.retainedFrom, spill: read.spill };
  } else {
    reply = { kind: read.kind, offset: read.offset };
  }
  return { job: ctx.jobs.info(job), read: reply };
}
