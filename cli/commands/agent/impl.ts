// `corral agent start|stop|status|run`: the daemon's life seen from a shell.
import process from "node:process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { CorralContext } from "../../context.ts";
import { chosenSocket, reportFailure, type SocketFlag } from "../../shared/agent-reach.ts";
import { durationFlag } from "../../shared/flag-parsers.ts";
import { ExitStatus } from "../../shared/exit-status.ts";
import { AgentUnavailableError, connectOrStart } from "../../../lib/agent/client/auto-start.ts";
import { AgentError, type AgentStatus } from "../../../lib/agent/protocol/messages.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import { loadConfig } from "../../../lib/config/load.ts";
import { DEFAULT_SCROLLBACK } from "../../../lib/pty/screen-size.ts";

export interface AgentFlags extends SocketFlag {
  readonly json: boolean;
}

export interface AgentRunFlags extends SocketFlag {
  readonly idleTimeout?: string;
}

/** How long `agent stop` waits for the agent (and its sessions' trees) to be gone. */
const STOP_DEADLINE_MS = 30_000;

/** Greets, tolerating a version mismatch: status and stop must reach a stale agent. */
async function statusOf(client: AgentClient): Promise<AgentStatus> {
  try {
    await client.hello();
  } catch (error) {
    if (!(error instanceof AgentError && error.code === "version_mismatch")) throw error;
  }
  const { id: _id, ok: _ok, ...status } = await client.call({ op: "agent-status" }) as AgentStatus & { id: number; ok: boolean };
  return status;
}

function describe(status: AgentStatus): string {
  const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
  return [
    `agent pid ${status.pid}, up ${Math.round(status.uptimeMs / 1000)}s, protocol ${status.protocolVersion}, ${status.runtime}`,
    `sessions ${status.sessions} (${status.alive} running), memory rss ${mb(status.memory.rss)} heap ${mb(status.memory.heapUsed)}`,
    `socket ${status.socket}`,
  ].join("\n") + "\n";
}

/** Starts the agent unless it runs; prints its status. */
export async function agentStartAction(this: CorralContext, flags: AgentFlags): Promise<void> {
  let client: AgentClient | undefined;
  try {
    client = await connectOrStart({ socket: chosenSocket(this, flags), start: true, env: this.process.env });
    const status = await statusOf(client);
    this.process.stdout.write(flags.json ? `${JSON.stringify({ running: true, ...status })}\n` : describe(status));
  } catch (error) {
    reportFailure(this, error);
  } finally {
    client?.close();
  }
}

/** Prints the agent's status; exit 1 when none runs. Never starts one. */
export async function agentStatusAction(this: CorralContext, flags: AgentFlags): Promise<void> {
  const socket = chosenSocket(this, flags);
  let client: AgentClient | undefined;
  try {
    client = await connectOrStart({ socket, start: false });
    const status = await statusOf(client);
    this.process.stdout.write(flags.json ? `${JSON.stringify({ running: true, ...status })}\n` : describe(status));
  } catch (error) {
    if (!(error instanceof AgentUnavailableError)) return reportFailure(this, error);
    this.process.stdout.write(flags.json ? `${JSON.stringify({ running: false, socket })}\n` : `no agent is running on ${socket}\n`);
    this.process.exitCode = ExitStatus.failure;
  } finally {
    client?.close();
  }
}

/** Stops the agent and returns once its process (and so every session) is gone. */
export async function agentStopAction(this: CorralContext, flags: AgentFlags): Promise<void> {
  const socket = chosenSocket(this, flags);
  let client: AgentClient | undefined;
  try {
    client = await connectOrStart({ socket, start: false });
    const status = await statusOf(client);
    const closed = new Promise<void>((resolve) => client?.socket.once("close", () => resolve()));
    const reply = await client.call({ op: "agent-stop" });
    await closed;
    await waitGone(status.pid);
    const out = { stopped: true, pid: status.pid, sessions: reply.sessions };
    this.process.stdout.write(flags.json ? `${JSON.stringify(out)}\n` : `stopped agent ${status.pid} (closed ${reply.sessions} running sessions)\n`);
  } catch (error) {
    if (!(error instanceof AgentUnavailableError)) return reportFailure(this, error);
    this.process.stdout.write(flags.json ? `${JSON.stringify({ stopped: false, socket })}\n` : `no agent is running on ${socket}\n`);
  } finally {
    client?.close();
  }
}

async function waitGone(pid: number): Promise<void> {
  const deadline = Date.now() + STOP_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (!processRuns(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the agent (pid ${pid}) was asked to stop but is still running after ${STOP_DEADLINE_MS / 1000}s`);
}

/** Present and not a zombie (DESIGN.md 4.2: a zombie counts as gone). */
function processRuns(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** The daemon itself, in the foreground. */
export async function agentRunAction(this: CorralContext, flags: AgentRunFlags): Promise<void> {
  let status: number = ExitStatus.corralFailure;
  try {
    const config = await loadConfig(this.process.env);
    const idleTimeoutMs = durationFlag("--idle-timeout", flags.idleTimeout) ??
      durationFlag("CORRAL_AGENT_IDLE", this.process.env.CORRAL_AGENT_IDLE) ?? config.agent.idleTimeoutMs;
    const socket = chosenSocket(this, flags);
    const [{ runAgent }, { ptySessionFactory }] = await Promise.all([
      import("../../../lib/agent/server/agent-main.ts"),
      import("../../../lib/agent/server/pty-sessions.ts"),
    ]);
    status = await runAgent({
      socket,
      idleTimeoutMs,
      openSession: ptySessionFactory(path.dirname(socket)),
      defaults: {
        cols: config.terminal.cols,
        rows: config.terminal.rows,
        term: config.terminal.term,
        scrollback: DEFAULT_SCROLLBACK,
        waitTimeoutMs: 60_000,
        closeGraceMs: config.graceMs,
      },
    });
  } catch (error) {
    reportFailure(this, error);
    status = typeof this.process.exitCode === "number" ? this.process.exitCode : ExitStatus.corralFailure;
  }
  // Whatever handles a backend left open, the agent's life ends here.
  process.exit(status);
}
