// `agent-status`: what an operator asks of the daemon. Kept answerable even
// when the hello's versions differ, so a stale agent can be found and stopped.
import process from "node:process";
import type { AgentContext } from "../agent-context.ts";
import { PROTOCOL_VERSION, type ReplyBodies } from "../../protocol/messages.ts";
import { runtimeTraits } from "../../../runtime/traits.ts";

/** The agent's pid, uptime, protocol, sessions, memory, and whether its files were replaced since it started. */
export function handleAgentStatus(ctx: AgentContext): ReplyBodies["agent-status"] {
  const memory = process.memoryUsage();
  return {
    pid: process.pid,
    uptimeMs: Date.now() - ctx.startedAt,
    protocolVersion: PROTOCOL_VERSION,
    sessions: ctx.registry.all().length,
    alive: ctx.registry.aliveCount(),
    memory: { rss: memory.rss, heapUsed: memory.heapUsed },
    socket: ctx.socket,
    runtime: runtimeTraits().name,
    filesReplaced: ctx.filesReplaced(),
  };
}
