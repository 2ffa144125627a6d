// The MCP SDK's own client over stdio, talking to the built `corral mcp`
// against a private agent: what an AI agent's MCP client does, so the tests
// see exactly what one would (schemas validated by the SDK included).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { corralCommand, repoRoot } from "./corral-cli.ts";
import type { PrivateAgent } from "./agent-harness.ts";
import { isAlive } from "./processes.ts";
import { waitFor } from "./wait.ts";

/** A connected client and the server's pid. */
export interface McpSession {
  readonly client: Client;
  readonly pid: number;
  /** Calls a tool; the result as the SDK returns it (isError for failures). */
  call(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal; onprogress?: (p: { progress: number; message?: string | undefined }) => void }): Promise<CallToolResult>;
  /** Calls a tool that must succeed; its structuredContent. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
  /** How the server process ended (after close): a server that had to be killed shows "SIGKILL". */
  ended(): { code: number | null; signal: string | null };
}

/** Starts `corral mcp FLAGS` against `agent` and connects the SDK client to it. */
export async function mcpSession(agent: PrivateAgent, flags: readonly string[] = [], env: Record<string, string> = {}): Promise<McpSession> {
  const [file, ...args] = corralCommand() as [string, ...string[]];
  const transport = new StdioClientTransport({
    command: file,
    args: [...args, "mcp", ...flags],
    cwd: repoRoot,
    env: { ...process.env as Record<string, string>, ...agent.env, ...env },
    stderr: "inherit",
  });
  const client = new Client({ name: "corral-test", version: "0" });
  await client.connect(transport);
  // The SDK keeps the child private; its exit code and signal say whether the server left by itself.
  const child = (transport as unknown as { _process?: { exitCode: number | null; signalCode: string | null } })._process;
  const call: McpSession["call"] = async (name, args = {}, options = {}) =>
    await client.callTool({ name, arguments: args }, undefined, {
      timeout: 120_000,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.onprogress !== undefined ? { onprogress: options.onprogress } : {}),
    }) as CallToolResult;
  return {
    client,
    pid: transport.pid as number,
    call,
    async ok<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
      const result = await call(name, args);
      if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as T;
    },
    async close() {
      const pid = transport.pid;
      await client.close();
      if (pid !== null) await waitFor(() => !isAlive(pid), { what: `corral mcp (pid ${pid}) to exit` });
    },
    ended: () => ({ code: child?.exitCode ?? null, signal: child?.signalCode ?? null }),
  };
}

/** The text of a failed call's first content item. */
export function errorText(result: CallToolResult): string {
  const first = result.content[0];
  return first !== undefined && first.type === "text" ? first.text : "";
}
