// The MCP server of `corral mcp` on the official SDK: tools/list from the
// tool table (without the tools --read-only takes away), tools/call checked
// against the tool's input schema and the safety switches, then answered as
// structuredContent plus a short text. Failures are tool results with
// isError and one line `code: message`, never a crash; the agent's error
// codes pass through unchanged.
import { setMaxListeners } from "node:events";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallsInFlight } from "./calls-in-flight.ts";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import type { CorralConfig } from "../../../lib/config/schema.ts";
import { CursorStore } from "./cursors.ts";
import { checkInput } from "./input-check.ts";
import type { McpOptions } from "./options.ts";
import { RunRegistry } from "./runs.ts";
import { ExecConnections } from "./execs.ts";
import { type ToolCall, ToolError } from "./tool.ts";
import { TOOLS } from "./tools/table.ts";

/** What the server needs from its command: options, config, environment, and how to reach the agent. */
export interface ServerParts {
  readonly options: McpOptions;
  readonly config: CorralConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly version: string;
  /** A greeted agent connection (the command reconnects when the last one was lost). */
  agent(): Promise<AgentClient>;
  /** A new greeted connection, for one wait. */
  waitingAgent(): Promise<AgentClient>;
}

/**
 * The server, the runs it holds (ended when the client goes away), its exec
 * connections (let go of then) and the calls it is answering.
 */
export function buildServer(parts: ServerParts): { server: Server; runs: RunRegistry; execs: ExecConnections; calls: CallsInFlight; endWaits: () => void } {
  const server = new Server(
    { name: "corral", version: parts.version },
    {
      capabilities: { tools: {} },
      instructions: [
        "corral runs commands and terminal sessions with guarantees: `run` for a command to its end (timeout on the",
        "whole tree, bounded output with the cut stated, survivors named and ended); terminal_* for interactive",
        "programs (sessions outlive this server), terminal_exec for one command in a session's shell with its exit",
        "status; job_* for long commands in the background. Waits answer within",
        `${Math.round(parts.options.waitCapMs / 1000)} s: done:false with a cursor to resume.`,
      ].join(" "),
    },
  );
  const runs = new RunRegistry(parts.env, parts.config);
  const cursors = new CursorStore();
  const execs = new ExecConnections();
  const calls = new CallsInFlight();
  /** Aborted when the server ends (impl.ts): each call gets a signal of its own from it (answerCall). */
  const serverEnding = new AbortController();
  // One listener per call in flight, and a client may ask many calls at once: no "possible leak" warning on stderr.
  setMaxListeners(0, serverEnding.signal);
  const offered = TOOLS.filter((tool) => !parts.options.readOnly || tool.readOnly);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: offered.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: !tool.readOnly, openWorldHint: tool.starts },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, (request, extra): Promise<CallToolResult> => calls.track(answerCall(request, extra)));

  async function answerCall(
    request: { params: { name: string; arguments?: Record<string, unknown> | undefined; _meta?: { progressToken?: string | number | undefined } | undefined } },
    extra: { signal: AbortSignal; sendNotification: (notification: { method: "notifications/progress"; params: Record<string, unknown> }) => Promise<void> },
  ): Promise<CallToolResult> {
    const { name, arguments: args = {} } = request.params;
    const token = request.params._meta?.progressToken;
    // The call's own signal for the server's end, let go of when the call ends: the tools combine
    // it with others (AbortSignal.any), which must not pile up on a signal that lives as long as the server.
    const ending = new AbortController();
    const endCall = () => ending.abort();
    serverEnding.signal.addEventListener("abort", endCall, { once: true });
    const call: ToolCall = {
      options: parts.options,
      config: parts.config,
      env: parts.env,
      agent: parts.agent,
      waitingAgent: parts.waitingAgent,
      cursors,
      runs,
      execs,
      signal: extra.signal,
      ending: ending.signal,
      progress: (progress, message, total) => {
        if (token === undefined) return;
        void extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, message, ...(total !== undefined ? { total } : {}) },
        }).catch(() => {});
      },
    };
    try {
      const tool = TOOLS.find((t) => t.name === name);
      if (tool === undefined) throw new ToolError("unknown_tool", `no tool named ${JSON.stringify(name.slice(0, 60))}; the tools are ${offered.map((t) => t.name).join(", ")}`);
      if (parts.options.readOnly && !tool.readOnly) {
        throw new ToolError("read_only", `${tool.name} is refused: this server runs with --read-only (screens, lists, reads and waits only)`);
      }
      checkInput(tool.name, tool.inputSchema, args);
      const { structured, text } = await tool.answer(args, call);
      return { content: [{ type: "text", text }], structuredContent: structured };
    } catch (error) {
      const failure = error instanceof ToolError ? error : new ToolError("internal", (error as Error)?.message ?? String(error));
      return { content: [{ type: "text", text: `${failure.code}: ${failure.message}` }], isError: true };
    } finally {
      serverEnding.signal.removeEventListener("abort", endCall);
    }
  }
  return { server, runs, execs, calls, endWaits: () => serverEnding.abort() };
}
