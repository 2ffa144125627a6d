// What one MCP tool is, for the server (server.ts), the docs' reference
// (reference.ts) and the tests: its name, what it is for, its input and
// output JSON Schemas, whether it starts processes (--allow) or only reads
// (--read-only), and the function that answers a call. Each tool answers
// with one object (MCP structuredContent) plus a short text rendering.
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import type { CorralConfig } from "../../../lib/config/schema.ts";
import type { CursorStore } from "./cursors.ts";
import type { McpOptions } from "./options.ts";
import type { RunRegistry } from "./runs.ts";
import type { ExecConnections } from "./execs.ts";

/** A JSON Schema object, as MCP's tools/list carries it. */
export type JsonSchema = { readonly type: "object"; readonly properties: Record<string, unknown>; readonly required?: readonly string[]; readonly [key: string]: unknown };

/** What a tool call may use: the agent, the options of this server, where to report progress. */
export interface ToolCall {
  readonly options: McpOptions;
  readonly config: CorralConfig;
  /** The caller's environment (scrubbed before it reaches any child). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The one agent connection of this server (started when first needed). */
  agent(): Promise<AgentClient>;
  /**
   * A connection of its own for one wait, closed by the caller when the wait
   * ends: closing it ends the agent's side of the wait at once (a cancelled
   * wait must not hold the session's next wait back).
   */
  waitingAgent(): Promise<AgentClient>;
  readonly cursors: CursorStore;
  readonly runs: RunRegistry;
  /** terminal_exec's open connections, let go of when the client leaves. */
  readonly execs: ExecConnections;
  /** Aborted when the client cancels this call (notifications/cancelled) or goes away. */
  readonly signal: AbortSignal;
  /**
   * Aborted when the client closed stdin and the grace for the calls it
   * asked ran out (impl.ts): a wait still going answers at once with what it
   * has (done:false, as at the wait cap), so the call gets an answer before
   * the server exits.
   */
  readonly ending: AbortSignal;
  /** Sends an MCP progress notification when the client asked for them (a progress token); else nothing. */
  progress(progress: number, message: string, total?: number): void;
}

/** How a wait's answer begins when the server cut it short because it is ending (ToolCall.ending). */
export const SERVER_ENDING = "not finished: the server is ending (its client closed stdin)";

/** A tool's answer: the structured object and its short text. */
export interface ToolAnswer {
  readonly structured: Record<string, unknown>;
  readonly text: string;
}

/** One tool of `corral mcp`. */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Allowed under --read-only: it reads screens, lists or waits, and starts, sends and stops nothing. */
  readonly readOnly: boolean;
  /** Starts a command: checked against --allow. */
  readonly starts: boolean;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
  answer(input: Record<string, unknown>, call: ToolCall): Promise<ToolAnswer>;
}

/** A call that failed; `code` is the agent's error code or the server's own. */
export class ToolError extends Error {
  override readonly name = "ToolError";
  constructor(readonly code: string, message: string) {
    super(message);
  }
}
