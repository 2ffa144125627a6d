// The first command that needs the agent starts it (tmux's client_connect):
// try to connect; else take the start lock, try once more (someone may have
// started it while we waited), clear a stale socket, spawn the agent
// detached with its output to the log, and connect once it answers. So N
// clients racing start exactly one agent.
import { openSync, closeSync, writeSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { AgentClient } from "./client.ts";
import { agentPaths } from "./agent-paths.ts";
import { clearStaleSocket, AgentRunningError } from "./socket-probe.ts";
import { ensureStateDir } from "./state-dir.ts";
import { AgentUnavailableError } from "./agent-unavailable.ts";
import { verifyAgentSocket } from "./agent-trust.ts";
import { describeEnd } from "../../core/exit-words.ts";

/** Longest the whole start (lock wait + agent boot) may take. */
const START_DEADLINE_MS = 20_000;
/** A lock older than this whose holder is gone, or any lock this old, is stale. */
const STALE_LOCK_MS = 15_000;
/** Longest a command that starts no agent waits for one being started (re-adopting many guardians takes a while). */
const STARTING_WAIT_MS = 60_000;

export { AgentUnavailableError };

export interface ConnectOptions {
  readonly socket: string;
  /** Start the agent when none answers (false: `agent status`, `agent stop`). */
  readonly start: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A connected client, hello not yet sent; starts the agent when allowed. */
export async function connectOrStart(options: ConnectOptions): Promise<AgentClient> {
  const first = await tryOpen(options.socket);
  if (first) return first;
  if (!options.start) {
    // An agent starting now (re-adopting what the last one left, not yet bound) is an agent:
    // a command that never starts one waits for it rather than say there is none.
    const started = await onceStarted(options.socket);
    if (started) return started;
    throw new AgentUnavailableError(`no agent is running on ${options.socket}`);
  }
  const paths = agentPaths(options.socket);
  ensureStateDir(paths.dir);
  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (takeLock(paths.lock)) break;
    const client = await tryOpen(options.socket);
    if (client) return client;
    if (Date.now() > deadline) throw new AgentUnavailableError(`timed out waiting for the agent start lock ${paths.lock}`);
    await pause(25);
  }
  try {
    const again = await tryOpen(options.socket);
    if (again) return again;
    try {
      await clearStaleSocket(options.socket);
    } catch (error) {
      if (!(error instanceof AgentRunningError)) throw error;
    }
    // Loaded only now: child_process is not needed while an agent answers.
    const { spawnAgent } = await import("./agent-spawn.ts");
    const child = spawnAgent(options.socket, paths.log, options.env ?? process.env);
    let exited: string | null = null;
    child.once("exit", (code, signal) => (exited = describeEnd({ code, signal })));
    while (Date.now() < deadline) {
      const client = await tryOpen(options.socket);
      if (client) return client;
      if (exited !== null) break;
      await pause(20);
    }
    throw new AgentUnavailableError(
      `the agent did not start (${exited ?? "no answer in time"}); see its log ${paths.log}`,
    );
  } finally {
    rmSync(paths.lock, { force: true });
  }
}

/**
 * While an agent is being started on `socket` (its own start hold, or a
 * client's start lock, held by a live process), waits for it to answer;
 * null when none is starting, or it ended without answering.
 */
async function onceStarted(socket: string): Promise<AgentClient | null> {
  const paths = agentPaths(socket);
  const deadline = Date.now() + STARTING_WAIT_MS;
  while ((heldByLiveProcess(paths.starting) || heldByLiveProcess(paths.lock)) && Date.now() < deadline) {
    await pause(25);
    const client = await tryOpen(socket);
    if (client) return client;
  }
  return null;
}

/** A lock or hold file naming a process that still runs (EPERM: another user's, running). */
function heldByLiveProcess(file: string): boolean {
  try {
    const holder = Number(readFileSync(file, "utf8").trim());
    if (!Number.isInteger(holder) || holder <= 0) return false;
    process.kill(holder, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** O_EXCL create: exactly one starter wins; a dead holder's lock is broken. */
function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, "wx", 0o600);
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    if (lockIsStale(lock)) rmSync(lock, { force: true });
    return false;
  }
}

function lockIsStale(lock: string): boolean {
  try {
    const age = Date.now() - statSync(lock).mtimeMs;
    const holder = Number(readFileSync(lock, "utf8").trim());
    if (age > STALE_LOCK_MS) return true;
    if (!Number.isInteger(holder) || holder <= 0) return age > 1000;
    process.kill(holder, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * A connection to a verified agent (agent-trust.ts; nothing is sent before
 * the check), or null when none answers. A socket we may not connect to is
 * "permission denied", never "no agent": someone else's agent is there.
 */
async function tryOpen(socket: string): Promise<AgentClient | null> {
  let client: AgentClient;
  try {
    client = await AgentClient.open(socket);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM") {
      throw new AgentPermissionError(`permission denied connecting to the agent socket ${socket}${ownerNote(socket)}; it is not yours (set CORRAL_STATE_DIR or --socket to your own)`);
    }
    return null;
  }
  try {
    verifyAgentSocket(socket);
  } catch (error) {
    client.close();
    throw error;
  }
  return client;
}

/** The agent socket exists but we may not use it (another user's). */
export class AgentPermissionError extends Error {
  override readonly name = "AgentPermissionError";
}

function ownerNote(socket: string): string {
  for (const file of [socket, path.dirname(socket)]) {
    try {
      return ` (${file === socket ? "socket" : "its directory"} owned by uid ${statSync(file).uid})`;
    } catch {
      // try the directory
    }
  }
  return "";
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
