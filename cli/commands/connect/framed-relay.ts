// `corral connect` as the far end of a remote call (--host, --via): when
// its stdin starts with the framed preamble (a NUL byte, which no JSON line
// starts with), it relays the agent's own frames between stdio and the
// agent socket instead of JSON lines, so every operation, attach's raw
// bytes and the hello's version check pass through unchanged. It starts
// the agent on demand, as any local command does.
//
// The one thing it adds is what only this side knows: where a session or
// a job runs and with which environment. A remote caller sends only what
// it set (--env, --term, --cwd, its env-shaping flags); this machine's
// environment, scrubbed by the same rules as a local run, and its home
// directory fill in the rest (lib/agent/client/remote/far-environment.ts).
// It answers one request itself: ENV_PLAN_OP, the names it would withhold.
// A relative spill or recording path is made absolute here (remote/far-paths.ts).
import process from "node:process";
import type { CorralContext } from "../../shared/context.ts";
import { chosenSocket, reportFailure, type SocketFlag } from "../../shared/agent-reach.ts";
import { ExitStatus } from "../../shared/exit-status.ts";
import { loadConfig } from "../../../lib/config/load.ts";
import type { CorralConfig } from "../../../lib/config/schema.ts";
import { ENV_PLAN_OP, farEnvironment } from "../../../lib/agent/client/remote/far-environment.ts";
import { pathsHere } from "../../../lib/agent/client/remote/far-paths.ts";
import { encodeFrame, FrameDecoder, frameJson, jsonFrame, MAX_FRAME_BYTES, Tag } from "../../../lib/agent/protocol/frames.ts";
import { openAgentLink } from "../../../lib/agent/client/agent-link.ts";
import { AgentUnavailableError } from "../../../lib/agent/client/agent-unavailable.ts";
import { NO_AGENT_STATUS } from "../../../lib/agent/client/remote/framed-preamble.ts";

type Json = Record<string, unknown>;

/** Relays frames until either side ends; `leftover`: stdin bytes read after the preamble. */
export async function relayFrames(ctx: CorralContext, flags: SocketFlag, leftover: Uint8Array, start: boolean): Promise<void> {
  const { stdout } = ctx.process;
  let config: CorralConfig;
  const socket = chosenSocket(ctx, flags);
  try {
    config = await loadConfig(ctx.process.env);
    // Started (and its socket checked) as any command would; then a plain byte link to it.
    const { connectOrStart } = await import("../../../lib/agent/client/auto-start.ts");
    (await connectOrStart({ socket, start, env: ctx.process.env })).close();
  } catch (error) {
    reportFailure(ctx, error);
    if (error instanceof AgentUnavailableError) ctx.process.exitCode = NO_AGENT_STATUS;
    process.stdin.destroy();
    return;
  }
  let agentEnded!: () => void;
  const ended = new Promise<void>((resolve) => (agentEnded = resolve));
  // Requests still unanswered: at the end of stdin the caller is done asking,
  // not done hearing, so the agent link closes only once they are answered
  // (the agent answers a connection's requests in order). The agent's frames
  // are read for their ids only; stdout gets its bytes as they came.
  const pending = new Set<unknown>();
  let callerEnded = false;
  const replies = new FrameDecoder(MAX_FRAME_BYTES);
  // Replies made here go out between the agent's frames, never inside one.
  const ownReplies: Uint8Array[] = [];
  const flushOwn = () => {
    if (replies.pendingBytes > 0) return;
    for (const frame of ownReplies.splice(0)) stdout.write(frame);
  };
  const closeWhenAnswered = () => {
    if (callerEnded && pending.size === 0) link.close();
  };
  const link = await openAgentLink(socket, {
    data: (bytes) => {
      try {
        for (const frame of replies.push(bytes)) {
          if (frame.tag !== Tag.json) continue;
          const id = (frameJson(frame.body) as { id?: unknown }).id;
          if (id !== undefined) pending.delete(id);
        }
      } catch {
        pending.clear(); // not frames we can read: nothing to wait for
      }
      closeWhenAnswered();
      // A slow reader at the other end slows the agent, never our memory.
      if (!stdout.write(bytes)) {
        link.pause();
        stdout.once("drain", () => link.resume());
      }
      if (ownReplies.length > 0) flushOwn();
    },
    error: () => {},
    close: () => agentEnded(),
  });
  const decoder = new FrameDecoder(MAX_FRAME_BYTES);
  const forward = (chunk: Uint8Array) => {
    let frames;
    try {
      frames = decoder.push(chunk);
    } catch (error) {
      ctx.process.stderr.write(`corral: connect: a bad frame from the caller (${(error as Error).message}); closing\n`);
      link.close();
      return;
    }
    for (const frame of frames) {
      if (frame.tag !== Tag.json) {
        link.write(encodeFrame(frame.tag, frame.body));
        continue;
      }
      let message: unknown;
      try {
        message = frameJson(frame.body);
      } catch {
        link.write(encodeFrame(frame.tag, frame.body)); // the agent answers it as the bad frame it is
        continue;
      }
      const request = message as Json;
      if (request.op === ENV_PLAN_OP) {
        ownReplies.push(jsonFrame(envPlan(request, ctx.process.env, config)));
        flushOwn();
        continue;
      }
      if (typeof request.op === "string" && request.id !== undefined) pending.add(request.id);
      link.write(jsonFrame(completed(pathsHere(request, process.cwd()), ctx.process.env, config)));
    }
  };
  if (leftover.length > 0) forward(leftover);
  process.stdin.on("data", (chunk: Buffer) => forward(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)));
  process.stdin.resume(); // paused explicitly while the preamble was read: a listener alone would not start the flow
  // All of stdin may have come with the preamble: its end was then emitted already.
  if (process.stdin.readableEnded) callerEnded = true;
  else {
    process.stdin.once("end", () => {
      callerEnded = true;
      closeWhenAnswered();
    });
  }
  closeWhenAnswered();
  await ended;
  flushOwn();
  process.stdin.destroy();
  // What is still queued for stdout goes out before we return (an empty write's callback may never come).
  if (stdout.writableNeedDrain) await new Promise<void>((resolve) => stdout.once("drain", () => resolve()));
  // The agent went away under a caller still talking: as the JSON lines' `agent_gone`, status 1.
  if (!callerEnded) ctx.process.exitCode = ExitStatus.failure;
}

/** An `open` or `job-start` from afar: this machine's environment under what the caller set, its home as the directory. */
function completed(message: Json, env: CorralContext["process"]["env"], config: CorralConfig): Json {
  const far = farEnvironment(message, env, config);
  if (far === null) return message;
  const { envFlags: _applied, ...rest } = message;
  return { ...rest, env: far.env, cwd: typeof message.cwd === "string" ? message.cwd : process.cwd() };
}

/** The answer to ENV_PLAN_OP: what the `request` it carries would withhold here (names and a count, never values). */
function envPlan(message: Json, env: CorralContext["process"]["env"], config: CorralConfig): Json {
  const request = message.request;
  const far = typeof request === "object" && request !== null && !Array.isArray(request) ? farEnvironment(request as Json, env, config) : null;
  if (far === null) return { id: message.id, ok: false, error: { code: "bad_request", message: `${ENV_PLAN_OP} needs "request": an open or job-start request` } };
  return { id: message.id, ok: true, withheld: far.withheld, cleared: far.cleared };
}
