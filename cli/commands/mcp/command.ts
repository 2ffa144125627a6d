// `corral mcp`: corral as a Model Context Protocol server over stdio, for AI
// agents (Claude Code, Codex, Cursor ...). Definition only; the server is in
// cli/commands/mcp/impl.ts and server.ts, its tools in tools/.
import { buildCommand } from "@stricli/core";
import { type CorralContext, type McpFlags, parseDurationFlag, parseIntFlag, socketFlag } from "./flags.ts";

const text = (input: string): string => input;

export const mcpCommand = buildCommand<McpFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).mcpAction,
  parameters: {
    flags: {
      readOnly: { kind: "boolean", default: false, brief: "Offer only screens, lists, reads and waits: nothing is started, typed or stopped" },
      allow: { kind: "parsed", parse: text, optional: true, variadic: true, placeholder: "glob", brief: "Start only commands whose command line matches this glob (repeatable; * any text)" },
      budget: { kind: "parsed", parse: parseIntFlag("--budget", 200, 10_000_000), optional: true, placeholder: "chars", brief: "Characters of output or screen text per answer (default 30000)" },
      maxLine: { kind: "parsed", parse: parseIntFlag("--max-line", 80, 1_000_000), optional: true, placeholder: "chars", brief: "Clip a longer line in the middle, with a marker (default 2000)" },
      waitCap: { kind: "parsed", parse: parseDurationFlag("--wait-cap"), optional: true, placeholder: "dur", brief: "Longest one call waits before answering done:false with a cursor (default 45s, below 60s)" },
      scrub: { kind: "boolean", default: true, brief: "Drop credential-shaped variables from what commands get (--no-scrub passes all)" },
      socket: socketFlag,
    },
  },
  docs: {
    brief: "Serve the Model Context Protocol on stdio: run, terminal and job tools for AI agents",
    fullDescription: [
      "Speaks MCP (JSON-RPC on stdin/stdout) to an AI agent. Tools: run, terminal_open, terminal_send,",
      "terminal_exec, terminal_screen, terminal_wait, terminal_close, terminal_list, job_start, job_read,",
      "job_wait, job_stop.",
      "Sessions and jobs live in the corral agent, so they outlive this server and the CLI sees them",
      "(corral pty attach, corral jobs). A client that may call run can do anything you can: --read-only and",
      "--allow narrow it. Diagnostics go to stderr; stdout carries only the protocol.",
      "",
      "Examples:",
      "  claude mcp add corral -- npx corral mcp",
      "  corral mcp --read-only                      # watch sessions, start nothing",
      "  corral mcp --allow 'make *' --allow 'npm test'",
    ].join("\n"),
  },
});
