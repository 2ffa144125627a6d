// How a command reaches the agent: the socket from --socket/$CORRAL_SOCKET/
// the state dir, auto-start when allowed, the hello, and the one mapping of
// agent error codes to exit statuses and one-line messages.
import path from "node:path";
import { guardiansAwaitAgent } from "../../lib/agent/client/guardians-waiting.ts";
import type { CorralContext } from "./context.ts";
import { type SocketFlag, wantsRemote } from "./socket-flag.ts";
import type { RemoteTarget } from "../../lib/agent/client/remote/remote-target.ts";
import { ExitStatus } from "./exit-status.ts";
import type { AgentClient } from "../../lib/agent/client/client.ts";
import { AgentUnavailableError } from "../../lib/agent/client/agent-unavailable.ts";
import { AgentError } from "../../lib/agent/protocol/messages.ts";
import { checkSocketPath, socketPath, StateDirError } from "../../lib/agent/client/state-dir.ts";
import { ConfigError } from "../../lib/config/config-error.ts";
import { UsageError } from "./exit-status.ts";
import { errorLine } from "./error-line.ts";
import { noteFailure } from "./json-failure.ts";
import { CorralError } from "../../lib/core/corral-error.ts";

// Re-exported for callers written before socket-flag.ts; definitions should
// import from ./socket-flag.ts to keep start-up light.
export { socketFlag, type SocketFlag } from "./socket-flag.ts";

/** The socket this command talks to; throws StateDirError when its path cannot be a socket's. */
export function chosenSocket(ctx: CorralContext, flags: SocketFlag): string {
  const socket = socketPath(ctx.process.env, flags.socket);
  checkSocketPath(socket);
  return socket;
}

/**
 * A connection, hello not yet sent: to this machine's agent (started unless
 * `start` is false), or through ssh/--via to another's, which its own
 * `corral connect` starts on demand.
 */
export async function openClient(ctx: CorralContext, flags: SocketFlag, start: boolean, readopt = false): Promise<AgentClient> {
  const remote = await chosenRemote(ctx, flags);
  let client: AgentClient;
  if (remote !== null) {
    const { openRemoteClient } = await import("../../lib/agent/client/remote/open-remote.ts");
    client = await openRemoteClient(remote, ctx.process.env, start);
  } else {
    // Loaded here, not at the top: definitions import this module at start-up.
    const { connectOrStart } = await import("../../lib/agent/client/auto-start.ts");
    const socket = chosenSocket(ctx, flags);
    // Guardians waiting for a new agent (the last one died): a command that
    // reads sessions or jobs (`readopt`) starts one, which re-adopts them;
    // `agent status` and `agent stop` never start one.
    client = await connectOrStart({ socket, start: start || (readopt && guardiansAwaitAgent(path.dirname(socket))), env: ctx.process.env });
  }
  endWithCaller(ctx, client);
  return client;
}

/** The remote agent the flags or $CORRAL_HOST name (a config `hosts:` name resolved), or null. */
async function chosenRemote(ctx: CorralContext, flags: SocketFlag): Promise<RemoteTarget | null> {
  if (!wantsRemote(ctx, flags)) return null;
  const { remoteTarget, RemoteSpecError } = await import("../../lib/agent/client/remote/remote-target.ts");
  if (flags.socket !== undefined) throw new UsageError("--socket names this machine's agent; --host and --via another's: give one");
  const { loadConfig } = await import("../../lib/config/load.ts");
  const config = await loadConfig(ctx.process.env);
  try {
    return remoteTarget(flags, ctx.process.env, config.hosts);
  } catch (error) {
    if (error instanceof RemoteSpecError) throw new UsageError(error.message);
    throw error;
  }
}

/** The hello; a remote agent of another protocol is named as remote (restarting it would not help). */
async function greet(client: AgentClient, ctx: CorralContext, flags: SocketFlag): Promise<void> {
  try {
    await client.hello();
  } catch (error) {
    if (error instanceof AgentError && error.code === "version_mismatch" && wantsRemote(ctx, flags)) {
      const numbers = /protocol (\d+) and this corral speaks (\d+)/.exec(error.message);
      const where = flags.via ?? flags.host ?? ctx.process.env.CORRAL_HOST ?? "the other machine";
      throw new AgentError(
        "version_mismatch",
        numbers === null
          ? `${where}: ${error.message}`
          : `the agent on ${where} speaks protocol ${numbers[1]} and this corral speaks ${numbers[2]}; run the same corral release on both machines (--host HOST:/path/to/corral picks the remote one)`,
      );
    }
    throw error;
  }
}

/**
 * How long a command connects again to this machine's agent when a connection
 * is lost before the hello is answered: an agent going away (`agent stop`, or
 * SIGKILLed while its last threads still hold the socket) takes connections
 * and drops them unanswered for a few milliseconds, then refuses them, and
 * the next connection starts or finds the next agent.
 */
const LOST_HELLO_RETRY_MS = 2000;
/** Between two such connections. */
const LOST_HELLO_PAUSE_MS = 20;

/**
 * What a failed attempt leads to: "again" when this machine's agent lost the
 * connection before answering the hello (so nothing asked after the hello
 * ran: the agent answers a connection's requests in order) within the bound;
 * else the error to report, said plainly when the agent kept doing so.
 */
function afterFailedAttempt(client: AgentClient, greeted: boolean, ctx: CorralContext, flags: SocketFlag, deadline: number, error: unknown): "again" | unknown {
  if (greeted || !client.lost || wantsRemote(ctx, flags)) return error;
  if (Date.now() <= deadline) return "again";
  const why = error instanceof Error ? ` (${error.message})` : "";
  return new AgentError("internal", `the agent at ${chosenSocket(ctx, flags)} closed every connection before answering, for ${LOST_HELLO_RETRY_MS / 1000} s${why}; is it stopping? see corral agent status`);
}

function pauseBeforeConnectingAgain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, LOST_HELLO_PAUSE_MS));
}

/** A greeted connection; starts the agent unless `start` is false. */
export async function reachAgent(ctx: CorralContext, flags: SocketFlag, start = true): Promise<AgentClient> {
  const deadline = Date.now() + LOST_HELLO_RETRY_MS;
  for (;;) {
    const client = await openClient(ctx, flags, start);
    try {
      await greet(client, ctx, flags);
      return client;
    } catch (error) {
      const next = afterFailedAttempt(client, false, ctx, flags, deadline, error);
      client.close();
      if (next !== "again") throw next;
    }
    await pauseBeforeConnectingAgain();
  }
}

/** Reports a failure as one `corral: ` line and sets the exit status. */
export function reportFailure(ctx: CorralContext, error: unknown): void {
  let status: number = ExitStatus.corralFailure;
  let message: string;
  // ssh's own words (host key, authentication) as it wrote them, then ours.
  const transcript = (error as { transcript?: unknown } | null)?.transcript;
  if (typeof transcript === "string" && transcript !== "") ctx.process.stderr.write(transcript.endsWith("\n") ? transcript : `${transcript}\n`);
  if (error instanceof AgentError) {
    // A code this client does not know (a newer agent) is still a failure.
    status = error.exitStatus;
    message = error.message;
  } else if (error instanceof UsageError || error instanceof ConfigError) {
    status = ExitStatus.usage;
    message = error.message;
  } else if (error instanceof StateDirError || error instanceof AgentUnavailableError) {
    message = error.message;
  } else {
    message = error instanceof Error ? error.message : String(error);
  }
  ctx.process.stderr.write(errorLine(message));
  ctx.process.exitCode = status;
  noteFailure(ctx.process, error instanceof CorralError ? error.code : status === ExitStatus.usage ? "bad_request" : "internal", message);
}

/** Runs `body` with a greeted client; every failure becomes one line and a status. */
export async function withAgent(
  ctx: CorralContext,
  flags: SocketFlag,
  body: (client: AgentClient) => Promise<void>,
  options: { start?: boolean; whenAbsent?: () => void } = {},
): Promise<void> {
  const deadline = Date.now() + LOST_HELLO_RETRY_MS;
  for (;;) {
    let client: AgentClient | undefined;
    let greeted = false;
    try {
      const connected = await openClient(ctx, flags, options.start ?? true, true);
      client = connected;
      // The hello and the command's first request go out together (the agent
      // answers a connection's requests in order), saving a round trip; a
      // failed hello is the error reported (the request after it fails too).
      const hello = greet(connected, ctx, flags).then(() => void (greeted = true));
      hello.catch(() => {});
      try {
        await body(connected);
      } catch (error) {
        await hello;
        throw error;
      }
      await hello;
      return;
    } catch (error) {
      const next = client === undefined ? error : afterFailedAttempt(client, greeted, ctx, flags, deadline, error);
      if (next === "again") {
        client?.close();
        client = undefined;
        await pauseBeforeConnectingAgain();
        continue;
      }
      if (next instanceof AgentUnavailableError && options.whenAbsent !== undefined) {
        options.whenAbsent();
        return;
      }
      reportFailure(ctx, next);
      return;
    } finally {
      client?.close();
    }
  }
}

/**
 * withAgent's options for a command about one session: with no agent
 * running there is no session, so none is started just to say so.
 */
export function sessionOnly(ctx: CorralContext, session: string): { start: false; whenAbsent: () => void } {
  return {
    start: false,
    whenAbsent: () =>
      reportFailure(ctx, new AgentError("unknown_session", `no session "${session}" (no agent is running, so there are no sessions); corral pty open starts one`)),
  };
}

/**
 * A command the agent runs for the native client ends when that client goes
 * (Ctrl-C on a `pty wait`): closing its connection ends what it waits for.
 */
function endWithCaller(ctx: CorralContext, client: AgentClient): void {
  const signal = ctx.process.callerGone;
  if (signal === undefined) return;
  if (signal.aborted) client.close();
  else signal.addEventListener("abort", () => client.close(), { once: true });
}

/** A reply without its envelope fields (`id`, `ok`), as commands print it. */
export function replyBody<T extends object>(reply: T): Omit<T, "id" | "ok"> {
  const { id: _id, ok: _ok, ...body } = reply as T & { id?: unknown; ok?: unknown };
  return body as Omit<T, "id" | "ok">;
}
