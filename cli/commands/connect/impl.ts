// The `corral connect` loop: lines from stdin become requests on one agent
// connection (pipelined; the agent runs a connection's requests in order),
// replies are written back in the order the lines came, with `ref` echoed.
// A reply is passed on as the agent encoded it, its leading id swapped for
// the ref in the bytes: parsing and re-encoding a screen reply in this relay
// cost a tenth of a lockstep round trip (issue 33), and the agent's
// JSON.stringify already wrote what this process would write again.
import process from "node:process";
import { createInterface } from "node:readline";
import type { CorralContext } from "../../shared/context.ts";
import { reachAgent, reportFailure, type SocketFlag } from "../../shared/agent-reach.ts";
import { wantsRemote } from "../../shared/socket-flag.ts";
import { FRAMED_PREAMBLE, FRAMED_PREAMBLE_NO_START } from "../../../lib/agent/client/remote/framed-preamble.ts";
import { Buffer } from "node:buffer";
import { Readable } from "node:stream";
import { ExitStatus } from "../../shared/exit-status.ts";
import { loadConfig } from "../../../lib/config/load.ts";
import { failure, type Json, prepareLine } from "./connect-line.ts";
import type { CorralConfig } from "../../../lib/config/schema.ts";
import { type AgentClient, leadingReplyId } from "../../../lib/agent/client/client.ts";

/** A reply line ready to write (the agent's bytes), or a reply made here. */
type Outcome = Uint8Array | Json;

/** Serves stdin until it ends; exit 0, or 1 when the agent went away. */
export async function connectAction(this: CorralContext, flags: SocketFlag): Promise<void> {
  const first = await firstInput();
  if (first !== null && first[0] === 0) {
    const preamble = await afterPreamble(first);
    if (preamble === null) {
      this.process.stderr.write(`corral: connect: stdin began with a NUL byte but not with the framed preamble; send JSON lines, one request a line\n`);
      this.process.exitCode = ExitStatus.usage;
      process.stdin.destroy();
      return;
    }
    await (await import("./framed-relay.ts")).relayFrames(this, flags, preamble.rest, preamble.start);
    return;
  }
  // All of stdin may have come in that first read, its end emitted already: then read the lines from
  // what came. No input at all (</dev/null, a closed stdin): no line; readline on the ended stdin would never close.
  const input = first === null ? Readable.from([]) : process.stdin.readableEnded ? Readable.from([first]) : process.stdin;
  if (first !== null && input === process.stdin) process.stdin.unshift(first);
  let client: AgentClient;
  let config: CorralConfig;
  const remote = wantsRemote(this, flags);
  try {
    config = await loadConfig(this.process.env);
    client = await reachAgent(this, flags);
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  const out = this.process.stdout;
  let lost = false;
  let connectionLost = false;
  let queue: Promise<void> = Promise.resolve();
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const pending = answer(client, line, this.process.env, config, remote);
    queue = queue.then(async () => {
      const reply = await pending;
      if (reply instanceof Uint8Array) {
        out.write(reply);
        return;
      }
      const code = (reply.error as { code?: string } | undefined)?.code;
      if (code === "agent_gone") lost = true;
      if (code === "connection_lost") connectionLost = true;
      out.write(`${JSON.stringify(reply)}\n`);
    });
  }
  await queue;
  client.close();
  if (lost) this.process.exitCode = ExitStatus.failure;
  if (connectionLost) this.process.exitCode = ExitStatus.connectionLost;
}

/** The first bytes on stdin (null at once-ended input), left paused for whoever reads next. */
function firstInput(): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      done();
      process.stdin.pause();
      resolve(chunk);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const done = () => {
      process.stdin.off("data", onData);
      process.stdin.off("end", onEnd);
    };
    process.stdin.on("data", onData);
    process.stdin.once("end", onEnd);
  });
}

/** Whether the framed preamble asks for a start, and what follows it; null when the first line is not a preamble. */
async function afterPreamble(first: Buffer): Promise<{ start: boolean; rest: Uint8Array } | null> {
  let seen = first;
  while (!seen.includes(0x0a) && seen.length < 64) {
    process.stdin.resume();
    const more = await firstInput();
    if (more === null) break;
    seen = Buffer.concat([seen, more]);
  }
  const end = seen.indexOf(0x0a);
  const line = seen.subarray(0, end + 1).toString("latin1");
  if (end < 0 || (line !== FRAMED_PREAMBLE && line !== FRAMED_PREAMBLE_NO_START)) return null;
  return { start: line === FRAMED_PREAMBLE, rest: seen.subarray(end + 1) };
}

async function answer(client: AgentClient, line: string, env: CorralContext["process"]["env"], config: CorralConfig, remote: boolean): Promise<Outcome> {
  const prepared = prepareLine(line, { env, cwd: process.cwd(), config, remote });
  if ("failure" in prepared) return prepared.failure;
  const { request, ref } = prepared;
  try {
    return replyLine(await client.sendRaw(request), ref);
  } catch (error) {
    // A remote transport's loss keeps its own code (connection_lost), so a script tells it from an agent gone.
    const code = (error as { code?: unknown }).code === "connection_lost" ? "connection_lost" : "agent_gone";
    return failure(ref, code, code === "connection_lost" ? (error as Error).message : `the agent connection was lost: ${(error as Error).message}`);
  }
}

const utf8 = new TextEncoder();

/**
 * The reply line for `body` (the agent's reply, `{"id":N,...}`): the same
 * bytes as `JSON.stringify({ ref, ...reply without id })` and a newline,
 * made by replacing the id with the ref. A body that does not start with
 * its id is parsed and written the long way.
 */
function replyLine(body: Uint8Array, ref: unknown): Outcome {
  const leading = leadingReplyId(body);
  if (leading === undefined) {
    const { id: _replyId, ...reply } = JSON.parse(new TextDecoder().decode(body)) as Json;
    return ref === undefined ? reply : { ref, ...reply };
  }
  // After the id comes "," and the next member, or "}" when it was the only one.
  const rest = body.subarray(body[leading.end] === 0x2c ? leading.end + 1 : leading.end);
  const head = utf8.encode(ref === undefined ? "{" : body[leading.end] === 0x2c ? `{"ref":${JSON.stringify(ref)},` : `{"ref":${JSON.stringify(ref)}`);
  const line = new Uint8Array(head.length + rest.length + 1);
  line.set(head, 0);
  line.set(rest, head.length);
  line[line.length - 1] = 0x0a;
  return line;
}
