// `corral agent start|stop|status|run`: the daemon's life seen from a shell.
import process from "node:process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { CorralContext } from "../../shared/context.ts";
import { chosenSocket, openClient, reportFailure, type SocketFlag } from "../../shared/agent-reach.ts";
import { wantsRemote } from "../../shared/socket-flag.ts";
import { durationFlag } from "../../shared/flag-parsers.ts";
import { ExitStatus } from "../../shared/exit-status.ts";
import { AgentUnavailableError, connectOrStart } from "../../../lib/agent/client/auto-start.ts";
import { AgentError, type AgentStatus } from "../../../lib/agent/protocol/messages.ts";
import type { StopRunning } from "../../../lib/agent/protocol/agent-fields.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import { loadConfig } from "../../../lib/config/load.ts";
import { DEFAULT_SCROLLBACK } from "../../../lib/pty/screen-size.ts";
import { DEFAULT_WAIT_TIMEOUT_MS } from "../../../lib/core/defaults.ts";

export interface AgentFlags extends SocketFlag {
  readonly json: boolean;
}

export interface AgentStopFlags extends AgentFlags {
  readonly force: boolean;
  readonly keep: boolean;
}

export interface AgentRunFlags extends Pick<SocketFlag, "socket"> {
  /** Milliseconds. */
  readonly idleTimeout?: number;
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
    ...(status.filesReplaced === true
      ? ["files replaced: this agent was started from files an upgrade or a rebuild has replaced since; corral agent restart brings up the new ones (sessions and jobs survive it)"]
      : []),
  ].join("\n") + "\n";
}

/** Starts the agent unless it runs; prints its status. */
export async function agentStartAction(this: CorralContext, flags: AgentFlags): Promise<void> {
  let client: AgentClient | undefined;
  try {
    client = await openClient(this, flags, true);
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
    client = await openClient(this, flags, false);
    const status = await statusOf(client);
    this.process.stdout.write(flags.json ? `${JSON.stringify({ running: true, ...status })}\n` : describe(status));
  } catch (error) {
    if (!(error instanceof AgentUnavailableError)) return reportFailure(this, error);
    // Remote: the message names the machine (the socket is the far side's business).
    const where = wantsRemote(this, flags) ? error.message.replace(/^no agent is running on /, "") : socket;
    this.process.stdout.write(flags.json ? `${JSON.stringify({ running: false, socket: where })}\n` : `no agent is running on ${where}\n`);
    this.process.exitCode = ExitStatus.failure;
  } finally {
    client?.close();
  }
}

/**
 * Stops the agent and returns once its process is gone. While sessions or
 * jobs run: refused (exit 1) unless --force (ended) or --keep (left running
 * for the next agent); what ran is named by id either way.
 */
export async function agentStopAction(this: CorralContext, flags: AgentStopFlags): Promise<void> {
  const socket = chosenSocket(this, flags);
  if (flags.force && flags.keep) {
    this.process.stderr.write("corral: agent stop takes --force (end what runs) or --keep (leave it running), not both\n");
    this.process.exitCode = ExitStatus.usage;
    return;
  }
  const running: StopRunning = flags.force ? "end" : flags.keep ? "keep" : "refuse";
  let client: AgentClient | undefined;
  try {
    client = await openClient(this, flags, false);
    const status = await statusOf(client);
    const closed = client.closed;
    const reply = await client.call({ op: "agent-stop", running });
    const what = describeRunning(reply.running);
    if (!reply.stopping) {
      if (flags.json) this.process.stdout.write(`${JSON.stringify({ stopped: false, pid: status.pid, running: reply.running })}\n`);
      this.process.stderr.write(`corral: the agent (pid ${status.pid}) runs ${what}; agent stop --force ends them, --keep leaves them running for the next agent\n`);
      this.process.exitCode = ExitStatus.failure;
      return;
    }
    await closed;
    // A remote agent's pid is not ours to watch: its connection closing is the word we get.
    if (!wantsRemote(this, flags)) await waitGone(status.pid);
    // An agent older than --keep/--force ends everything and names nothing but a count.
    const key = running === "keep" ? "kept" : "ended";
    const out = { stopped: true, pid: status.pid, sessions: reply.sessions, [key]: reply.running ?? { sessions: [], jobs: [] } };
    const how = reply.running === undefined
      ? `closed ${reply.sessions} running sessions`
      : what === "nothing" ? "nothing was running" : running === "keep" ? `left running for the next agent: ${what}` : `ended ${what}`;
    this.process.stdout.write(flags.json ? `${JSON.stringify(out)}\n` : `stopped agent ${status.pid} (${how})\n`);
  } catch (error) {
    if (!(error instanceof AgentUnavailableError)) return reportFailure(this, error);
    this.process.stdout.write(flags.json ? `${JSON.stringify({ stopped: false, socket })}\n` : `no agent is running on ${socket}\n`);
  } finally {
    client?.close();
  }
}

/** "sessions 1 (vi), 2 and jobs %1 (gen)", or "nothing". */
function describeRunning(running: { sessions: readonly string[]; jobs: readonly string[] } | undefined): string {
  if (running === undefined) return "sessions";
  const parts = [
    running.sessions.length > 0 ? `session${running.sessions.length === 1 ? "" : "s"} ${running.sessions.join(", ")}` : "",
    running.jobs.length > 0 ? `job${running.jobs.length === 1 ? "" : "s"} ${running.jobs.join(", ")}` : "",
  ].filter((p) => p !== "");
  return parts.length === 0 ? "nothing" : parts.join(" and ");
}

/**
 * `agent restart`: the running agent stops keeping what runs, then this
 * corral's agent starts and re-adopts it (issue 11); says what it took over
 * and what was lost. Works across protocol versions (status and stop do).
 */
export async function agentRestartAction(this: CorralContext, flags: AgentFlags): Promise<void> {
  if (wantsRemote(this, flags)) {
    // The new agent must be the far side's own corral's: it starts there, not through us.
    this.process.stderr.write("corral: agent restart runs on the agent's own machine: ssh HOST corral agent restart\n");
    this.process.exitCode = ExitStatus.usage;
    return;
  }
  const socket = chosenSocket(this, flags);
  let client: AgentClient | undefined;
  let oldPid: number | null = null;
  try {
    try {
      client = await connectOrStart({ socket, start: false });
      const status = await statusOf(client);
      oldPid = status.pid;
      const closed = client.closed;
      const reply = await client.call({ op: "agent-stop", running: "keep" });
      await closed;
      await waitGone(status.pid);
      if (reply.running === undefined) {
        this.process.stderr.write(`corral: the old agent (pid ${status.pid}) predates agent restart: it closed its ${reply.sessions} running sessions\n`);
      }
    } catch (error) {
      if (!(error instanceof AgentUnavailableError)) throw error;
    } finally {
      client?.close();
      client = undefined;
    }
    client = await connectOrStart({ socket, start: true, env: this.process.env });
    await client.hello();
    const status = await client.call({ op: "agent-status" });
    const { sessions } = await client.call({ op: "list" });
    const { jobs } = await client.call({ op: "jobs" });
    const { lostRecords } = await import("../../../lib/agent/server/adoption/adopt.ts");
    const lost = lostRecords(path.dirname(socket));
    const out = {
      pid: status.pid,
      previous: oldPid,
      sessions: sessions.map((s) => s.id),
      jobs: jobs.map((j) => j.id),
      lost,
    };
    if (flags.json) {
      this.process.stdout.write(`${JSON.stringify(out)}\n`);
    } else {
      const took = describeRunning({
        sessions: sessions.map((s) => (s.name === null ? s.id : `${s.id} (${s.name})`)),
        jobs: jobs.map((j) => (j.name === null ? j.id : `${j.id} (${j.name})`)),
      });
      const from = oldPid === null ? "no agent was running" : `replaced agent ${oldPid}`;
      this.process.stdout.write(`agent ${status.pid} started (${from}); re-adopted ${took}\n`);
      for (const item of lost) this.process.stdout.write(`lost ${item.kind} ${item.id}${item.name === null ? "" : ` (${item.name})`}: ${item.reason}\n`);
    }
  } catch (error) {
    reportFailure(this, error);
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
    const idleTimeoutMs = flags.idleTimeout ??
      durationFlag("CORRAL_AGENT_IDLE", this.process.env.CORRAL_AGENT_IDLE) ?? config.agent.idleTimeoutMs;
    const socket = chosenSocket(this, flags);
    // Guardians of sessions and jobs wait this long for a new agent once this one is gone (issue 11).
    const orphanWaitMs = config.agent.orphanWaitMs === "off" ? undefined : config.agent.orphanWaitMs;
    const [{ runAgent }, { ptySessionFactory }, { adoptLeftGuardians }, { commandLineDoor }] = await Promise.all([
      import("../../../lib/agent/server/agent-main.ts"),
      import("../../../lib/agent/server/pty-sessions.ts"),
      import("../../../lib/agent/server/adoption/adopt.ts"),
      import("./command-line-door.ts"),
    ]);
    status = await runAgent({
      socket,
      idleTimeoutMs,
      openSession: ptySessionFactory(path.dirname(socket), config.guardian, orphanWaitMs),
      adopt: adoptLeftGuardians,
      ...(this.runCommandLine !== undefined ? { commandLines: commandLineDoor(this.runCommandLine) } : {}),
      defaults: {
        cols: config.terminal.cols,
        rows: config.terminal.rows,
        term: config.terminal.term,
        scrollback: DEFAULT_SCROLLBACK,
        waitTimeoutMs: DEFAULT_WAIT_TIMEOUT_MS,
        closeGraceMs: config.graceMs,
        guardian: config.guardian,
        ...(orphanWaitMs !== undefined ? { orphanWaitMs } : {}),
      },
    });
  } catch (error) {
    reportFailure(this, error);
    status = typeof this.process.exitCode === "number" ? this.process.exitCode : ExitStatus.corralFailure;
  }
  // Whatever handles a backend left open, the agent's life ends here.
  process.exit(status);
}
