// `corral agent start|stop|status` (and the hidden `agent run`, the daemon
// itself, which auto-start launches). Definitions only; implementations
// load lazily from ./impl.ts.
import { buildCommand, buildRouteMap } from "@stricli/core";
import { type AgentFlags, type AgentRunFlags, type AgentStopFlags, type CorralContext, parseDurationFlag, agentFlags, socketFlag } from "./flags.ts";
import { HELP_DEFAULT } from "./flags.ts";

const jsonFlag = { kind: "boolean", default: false } as const;

export const agentStart = buildCommand<AgentFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).agentStartAction,
  parameters: { flags: { json: { ...jsonFlag, brief: "Print the status as JSON" }, ...agentFlags } },
  docs: {
    brief: "Start the agent now (any command that needs it starts it anyway)",
    fullDescription: [
      "Starts the agent in the background unless one already answers on the socket, and",
      "prints its pid. The agent exits by itself once no session runs and nothing has been",
      `asked of it for agent.idle-timeout (default ${HELP_DEFAULT.idleTimeout}; $CORRAL_AGENT_IDLE overrides).`,
      "",
      "Examples:",
      "  corral agent start",
      "  CORRAL_STATE_DIR=/tmp/mine corral agent start --json",
    ].join("\n"),
  },
});

export const agentStop = buildCommand<AgentStopFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).agentStopAction,
  parameters: {
    flags: {
      json: { ...jsonFlag, brief: "Print what was stopped as JSON" },
      force: { kind: "boolean", default: false, brief: "End running sessions and jobs (their trees terminated), then stop" },
      keep: { kind: "boolean", default: false, brief: "Stop the agent only: sessions and jobs run on, for the next agent to re-adopt" },
      ...agentFlags,
    },
  },
  docs: {
    brief: "Stop the agent (refused while sessions or jobs run, unless --force or --keep)",
    fullDescription: [
      "With nothing running, stops the agent and returns once it is gone. While sessions or",
      "jobs run it refuses (exit 1, one line naming them) unless --force (ends them, says",
      "which, by id) or --keep (the agent exits; their guardians keep them running and wait",
      "for the next agent, which any later command starts and which re-adopts them).",
      "Works on an agent of another protocol version too. No agent running: says so, exit 0.",
      "",
      "Examples:",
      "  corral agent stop",
      "  corral agent stop --force",
      "  corral agent stop --keep && corral pty list",
    ].join("\n"),
  },
});

export const agentRestart = buildCommand<AgentFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).agentRestartAction,
  parameters: { flags: { json: { ...jsonFlag, brief: "Print what was taken over as JSON" }, ...agentFlags } },
  docs: {
    brief: "Replace the agent (this corral's version) without losing a session or a job",
    fullDescription: [
      "Stops the running agent keeping what runs (as agent stop --keep), starts this",
      "corral's agent, which re-adopts every session (same id, name, size, position; the",
      "screen rebuilt from the guardian's output tail) and job (same id, offsets, spill),",
      "and names them; what could not be re-adopted is named as lost, with why. The way to",
      "upgrade corral, or to answer a protocol-version mismatch. No agent running: starts one.",
      "",
      "Examples:",
      "  corral agent restart",
      "  corral agent restart --json | jq .lost",
    ].join("\n"),
  },
});

export const agentStatus = buildCommand<AgentFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).agentStatusAction,
  parameters: { flags: { json: { ...jsonFlag, brief: "Print the status as JSON" }, ...agentFlags } },
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
        parse: parseDurationFlag("--idle-timeout"),
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
  routes: { start: agentStart, stop: agentStop, restart: agentRestart, status: agentStatus, run: agentRun },
  docs: {
    brief: "The background agent that keeps terminal sessions",
    fullDescription: [
      "The background agent that keeps terminal sessions and jobs. Any command that needs it",
      "starts it, and it exits by itself once nothing runs and it has been idle for",
      `agent.idle-timeout (default ${HELP_DEFAULT.idleTimeout}). These commands start, inspect, stop and replace it.`,
      "",
      "Examples:",
      "  corral agent status",
      "  corral agent stop --keep",
      "  corral agent restart",
    ].join("\n"),
    hideRoute: { run: true },
  },
});
