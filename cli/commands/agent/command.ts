// `corral agent start|stop|status` (and the hidden `agent run`, the daemon
// itself, which auto-start launches). Definitions only; implementations
// load lazily from ./impl.ts.
import { buildCommand, buildRouteMap } from "@stricli/core";
import { type AgentFlags, type AgentRunFlags, type CorralContext, socketFlag } from "./flags.ts";

const jsonFlag = { kind: "boolean", default: false } as const;

export const agentStart = buildCommand<AgentFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).agentStartAction,
  parameters: { flags: { json: { ...jsonFlag, brief: "Print the status as JSON" }, socket: socketFlag } },
  docs: {
    brief: "Start the agent now (any command that needs it starts it anyway)",
    fullDescription: [
      "Starts the agent in the background unless one already answers on the socket, and",
      "prints its pid. The agent exits by itself once no session runs and nothing has been",
      "asked of it for agent.idle-timeout (default 5m; $CORRAL_AGENT_IDLE overrides).",
      "",
      "Examples:",
      "  corral agent start",
      "  CORRAL_STATE_DIR=/tmp/mine corral agent start --json",
    ].join("\n"),
  },
});

export const agentStop = buildCommand<AgentFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).agentStopAction,
  parameters: { flags: { json: { ...jsonFlag, brief: "Print what was stopped as JSON" }, socket: socketFlag } },
  docs: {
    brief: "Stop the agent: close every session, leave nothing running",
    fullDescription: [
      "Asks the agent to close every session (SIGHUP, then the tree terminated) and exit,",
      "and returns once it is gone. Works on an agent of another protocol version too.",
      "No agent running: says so, exit 0.",
      "",
      "Examples:",
      "  corral agent stop",
    ].join("\n"),
  },
});

export const agentStatus = buildCommand<AgentFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).agentStatusAction,
  parameters: { flags: { json: { ...jsonFlag, brief: "Print the status as JSON" }, socket: socketFlag } },
  docs: {
    brief: "Show the agent's pid, uptime, protocol, sessions and memory",
    fullDescription: [
      "Never starts the agent. Exit status 0 when one answers, 1 when none runs.",
      "",
      "Examples:",
      "  corral agent status",
      "  corral agent status --json | jq .memory.rss",
    ].join("\n"),
  },
});

export const agentRun = buildCommand<AgentRunFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).agentRunAction,
  parameters: {
    flags: {
      socket: socketFlag,
      idleTimeout: {
        kind: "parsed",
        parse: (text: string) => text,
        optional: true,
        placeholder: "dur",
        brief: "Exit after this long with no session and no request (default agent.idle-timeout)",
      },
    },
  },
  docs: {
    brief: "Run the agent in the foreground (what auto-start launches)",
    fullDescription: [
      "Serves the socket until stopped or idle; logs to stderr. Normally started detached",
      "by the first command that needs it, with its log in agent.log beside the socket.",
      "",
      "Examples:",
      "  corral agent run --socket /tmp/corral-test/agent.sock --idle-timeout 30s",
    ].join("\n"),
  },
});

export const agentRoutes = buildRouteMap<string, CorralContext>({
  routes: { start: agentStart, stop: agentStop, status: agentStatus, run: agentRun },
  docs: { brief: "The background agent that keeps terminal sessions", hideRoute: { run: true } },
});
