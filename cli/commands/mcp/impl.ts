// `corral mcp` itself: checks the flags, builds the server (server.ts) on
// the SDK's stdio transport and serves until the client goes away (stdin
// ends). Then every `run` still going is terminated (its tree was the
// call's); sessions and jobs stay in the agent for the next client or a
// person, and so do the commands terminal_exec typed into them. The agent is reached when a tool first needs it, and again after
// a lost connection.
import process from "node:process";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import { reachAgent } from "../../shared/agent-reach.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { loadCommandConfig } from "../../shared/child/spawn-spec.ts";
import { CORRAL_VERSION } from "../../shared/version.ts";
import type { CorralContext, McpFlags } from "./flags.ts";
import { DEFAULT_BUDGET, DEFAULT_MAX_LINE_CHARS, DEFAULT_WAIT_CAP_MS, MAX_WAIT_CAP_MS, type McpOptions } from "./options.ts";
import { buildServer } from "./server.ts";

/**
 * How long the calls asked before stdin ended are given to finish: the SDK's
 * own client sends SIGTERM 2 s after closing stdin, and a script piping a
 * batch in gets its quick calls answered.
 */
const STDIN_END_GRACE_MS = 2000;
/** How long the calls of the runs just ended are given to answer with how they ended. */
const LAST_ANSWERS_MS = 1000;

/** The command function of `corral mcp` (loaded lazily by command.ts). */
export async function mcpAction(this: CorralContext, flags: McpFlags): Promise<void> {
  const waitCapMs = flags.waitCap ?? DEFAULT_WAIT_CAP_MS;
  if (waitCapMs < 100 || waitCapMs > MAX_WAIT_CAP_MS) {
    throw new UsageError(`--wait-cap must be between 100ms and 59s (clients give up on a request after 60s), e.g. --wait-cap 30s`);
  }
  for (const glob of flags.allow ?? []) {
    if (glob.trim() === "") throw new UsageError("--allow needs a glob of command lines, e.g. --allow 'make *'");
  }
  const options: McpOptions = {
    budget: flags.budget ?? DEFAULT_BUDGET,
    maxLineChars: flags.maxLine ?? DEFAULT_MAX_LINE_CHARS,
    waitCapMs,
    progressEveryMs: Math.min(5000, Math.max(50, Math.floor(waitCapMs / 4))),
    readOnly: flags.readOnly,
    allow: flags.allow ?? [],
    scrub: flags.scrub,
    ...(flags.socket !== undefined ? { socket: flags.socket } : {}),
  };
  const config = await loadCommandConfig(this);
  let connecting: Promise<AgentClient> | null = null;
  const agent = (): Promise<AgentClient> => {
    if (connecting === null) {
      const attempt = reachAgent(this, { ...(flags.socket !== undefined ? { socket: flags.socket } : {}) });
      connecting = attempt;
      attempt.then((client) => client.closed.then(() => {
        if (connecting === attempt) connecting = null;
      }), () => {
        if (connecting === attempt) connecting = null;
      });
    }
    return connecting;
  };
  const waitingAgent = () => reachAgent(this, { ...(flags.socket !== undefined ? { socket: flags.socket } : {}) });
  const { server, runs, execs, calls, endWaits } = buildServer({ options, config, env: this.process.env, version: CORRAL_VERSION, agent, waitingAgent });
  const transport = new StdioServerTransport();
  let signalled: () => void = () => {};
  const bySignal = new Promise<void>((resolve) => (signalled = resolve));
  const ended = new Promise<"stdin" | "signal">((resolve) => {
    process.stdin.once("end", () => resolve("stdin"));
    process.stdin.once("close", () => resolve("stdin"));
    transport.onclose = () => resolve("stdin");
    // A client that gives up on the server signals it (the SDK's client: SIGTERM 2 s after closing stdin):
    // the runs are still ended before it goes.
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      process.once(signal, () => {
        signalled();
        resolve("signal");
      });
    }
  });
  await server.connect(transport);
  // The end of stdin: the calls asked before it are answered first, for a
  // grace (a signal cuts it short); then every run still going is ended,
  // and its call answers with how it ended, and every wait still going
  // answers with what it has.
  if (await ended === "stdin") await Promise.race([calls.settled(STDIN_END_GRACE_MS), bySignal]);
  endWaits();
  await runs.terminateAll();
  await calls.settled(LAST_ANSWERS_MS);
  execs.closeAll();
  await server.close().catch(() => {});
  if (connecting !== null) (await (connecting as Promise<AgentClient>).catch(() => null))?.close();
  // Ended by a signal, stdin may still be open: it must not keep this process alive.
  process.stdin.destroy();
}
