// One request to the agent from a tool: the agent's `{code, message}`
// failures become the tool's error with the same code, and a lost
// connection is said as such (the next call reconnects).
import { AgentError } from "../../../lib/agent/protocol/messages.ts";
import type { ReplyBodies, Request } from "../../../lib/agent/protocol/messages.ts";
import type { Op } from "../../../lib/agent/protocol/operations.ts";
import { type ToolCall, ToolError } from "./tool.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";

/** Sends `request` (on `on`, else the server's connection); throws ToolError with the agent's code on failure. */
export async function agentCall<O extends Op>(call: ToolCall, request: Extract<Request, { op: O }>, on?: AgentClient): Promise<ReplyBodies[O]> {
  const client = on ?? await call.agent();
  try {
    return await client.call<O>(request);
  } catch (error) {
    if (error instanceof AgentError) throw new ToolError(error.code, error.message);
    throw new ToolError("agent_gone", `the agent connection was lost: ${(error as Error).message}; the next call reconnects`);
  }
}

/** Sends progress notifications every `everyMs` until the returned function is called. */
export function progressWhile(call: ToolCall, what: string): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    call.progress(s, `${what}: waiting ${s} s`);
  }, call.options.progressEveryMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
