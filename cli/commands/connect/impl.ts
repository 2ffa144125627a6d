// The `corral connect` loop: lines from stdin become requests on one agent
// connection (pipelined; the agent runs a connection's requests in order),
// replies are written back in the order the lines came, with `ref` echoed.
import process from "node:process";
import path from "node:path";
import { createInterface } from "node:readline";
import type { CorralContext } from "../../shared/context.ts";
import { reachAgent, reportFailure, type SocketFlag } from "../../shared/agent-reach.ts";
import { ExitStatus } from "../../shared/exit-status.ts";
import { loadConfig } from "../../../lib/config/load.ts";
import { sessionEnvironment } from "../../../lib/agent/client/open-environment.ts";
import type { CorralConfig } from "../../../lib/config/schema.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";

type Json = Record<string, unknown>;
type Outcome = Json;

/** Serves stdin until it ends; exit 0, or 1 when the agent went away. */
export async function connectAction(this: CorralContext, flags: SocketFlag): Promise<void> {
  let client: AgentClient;
  let config: CorralConfig;
  try {
    config = await loadConfig(this.process.env);
    client = await reachAgent(this, flags);
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  const out = this.process.stdout;
  let lost = false;
  let queue: Promise<void> = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const pending = answer(client, line, this.process.env, config);
    queue = queue.then(async () => {
      const reply = await pending;
      if ((reply.error as { code?: string } | undefined)?.code === "agent_gone") lost = true;
      out.write(`${JSON.stringify(reply)}\n`);
    });
  }
  await queue;
  client.close();
  if (lost) this.process.exitCode = ExitStatus.failure;
}

async function answer(client: AgentClient, line: string, env: CorralContext["process"]["env"], config: CorralConfig): Promise<Outcome> {
  let request: Json;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return failure(undefined, "bad_request", "each line must be one JSON object, e.g. {\"op\":\"list\"}");
    }
    request = parsed as Json;
  } catch {
    return failure(undefined, "bad_request", `not a JSON line: ${JSON.stringify(line.slice(0, 60))}`);
  }
  const { ref, id: _id, ...rest } = request;
  if (rest.op === "attach") return failure(ref, "bad_request", "attach needs a terminal: use corral pty attach");
  if (rest.op === "watch") return failure(ref, "bad_request", "watch turns the connection into a byte stream: use corral pty view");
  // A recording's file is relative to this process's directory, as on the command line.
  const record = rest.record as Json | undefined;
  if (typeof record === "object" && record !== null && typeof record.path === "string" && !record.path.startsWith("/")) {
    rest.record = { ...record, path: path.resolve(record.path) };
  }
  if (typeof rest.session === "number") rest.session = String(rest.session);
  // So is exec's spill file.
  if (rest.op === "exec" && typeof rest.spill === "string" && !rest.spill.startsWith("/")) rest.spill = path.resolve(rest.spill);
  if (rest.op === "open") {
    const extra = rest.env;
    if (extra !== undefined && (typeof extra !== "object" || extra === null || Array.isArray(extra))) {
      return failure(ref, "bad_request", '"env" must be an object of NAME: value strings');
    }
    const set = Object.entries((extra ?? {}) as Json).map(([name, value]) => ({ name, value: value as string }));
    rest.env = sessionEnvironment(env, config, set, typeof rest.term === "string" ? rest.term : undefined);
    rest.cwd ??= process.cwd();
  }
  try {
    const { id: _replyId, ...reply } = await client.send(rest) as unknown as Json;
    return ref === undefined ? reply : { ref, ...reply };
  } catch (error) {
    return failure(ref, "agent_gone", `the agent connection was lost: ${(error as Error).message}`);
  }
}

function failure(ref: unknown, code: string, message: string): Outcome {
  const reply = { ok: false, error: { code, message } };
  return ref === undefined ? reply : { ref, ...reply };
}
