// The agent link of a remote call (remote-target.ts): the stdin and stdout
// of a child process (ssh, or the --via command) that runs `corral connect`
// on the other side, instead of a Unix socket. The first line written is
// FRAMED_PREAMBLE, which tells that connect to relay the agent's frames
// as they are (cli/commands/connect/framed-relay.ts); an older connect,
// which knows only JSON lines, answers it with a JSON line, and we say so.
//
// How the link ends decides what the command reports (never the remote
// command's exit): ssh's status 255 or a killed transport is a lost
// connection (status 255, as ssh's own), with ssh's own words; a remote
// corral that could not start says why, in its own words.
import { spawn } from "node:child_process";
import process from "node:process";
import type { AgentLink, AgentLinkEvents } from "../agent-link.ts";
import type { RemoteTarget } from "./remote-target.ts";
import { AgentError } from "../../protocol/errors.ts";
import { FRAMED_PREAMBLE, FRAMED_PREAMBLE_NO_START, NO_AGENT_STATUS } from "./framed-preamble.ts";
import { AgentUnavailableError } from "../agent-unavailable.ts";


/** Bytes of the transport's stderr kept for the message when it fails. */
const STDERR_KEPT = 4096;

/** The link's close can say why: a remote link that failed passes its error. */
export interface CommandLinkEvents extends Omit<AgentLinkEvents, "close"> {
  close(error?: Error): void;
}

/** A failure of the transport (not of any request): ssh's or the --via command's words kept apart. */
export class RemoteLinkError extends AgentError {
  /** What the transport wrote on stderr, to be shown as it wrote it (ssh's own message). */
  readonly transcript: string;
  constructor(code: "connection_lost" | "internal", message: string, transcript: string) {
    super(code, message);
    this.transcript = transcript;
  }
}

/** Starts `argv` and returns the link over its stdio; failures arrive as close(error). */
export function openCommandLink(argv: readonly string[], target: RemoteTarget, start: boolean, events: CommandLinkEvents): AgentLink {
  const [file, ...args] = argv;
  // Its own process group: Ctrl-C at our terminal is ours to forward as a
  // request (run --host), not a way to cut the connection under it.
  // Without $CORRAL_HOST: a --via command on this machine must not send its own connect onward again.
  const { CORRAL_HOST: _onward, ...env } = process.env;
  const child = spawn(file ?? "ssh", args, { stdio: ["pipe", "pipe", "pipe"], detached: true, env });
  let closedByUs = false;
  let closed = false;
  let received = 0;
  let firstByte: number | undefined;
  let stderr = "";
  const finish = (error?: Error) => {
    if (closed) return;
    closed = true;
    child.stdout.destroy();
    child.stderr.destroy();
    child.stdin.destroy();
    events.close(error);
  };
  child.stdout.on("data", (chunk: Buffer) => {
    if (received === 0) firstByte = chunk[0];
    received += chunk.length;
    if (firstByte === 0x7b) {
      // `{`: a connect that reads JSON lines only answered our preamble.
      finish(new RemoteLinkError("internal", `the corral on ${target.shown} is an older release whose connect speaks JSON lines only; install this release there (corral --version tells them apart)`, ""));
      child.kill("SIGTERM");
      return;
    }
    events.data(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_KEPT);
  });
  child.stdin.on("error", () => {}); // EPIPE when the transport died first: its exit says why
  child.on("error", (error) => {
    finish(new RemoteLinkError("connection_lost", `cannot start ${JSON.stringify(argv[0])} to reach ${target.shown}: ${error.message}`, ""));
  });
  // The exit and the end of stdout (what the pipe still held has arrived),
  // not `close`: an ssh master kept for sharing may hold the stderr pipe.
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  let drained = false;
  const settle = () => {
    if (exit === null || !drained) return;
    finish(closedByUs ? undefined : endError(target, exit.code, exit.signal, received > 0, stderr));
  };
  child.stdout.on("close", () => {
    drained = true;
    settle();
  });
  child.on("exit", (code, signal) => {
    exit = { code, signal };
    // stderr's last words may trail the exit by a moment; they only colour the message.
    setImmediate(settle);
  });
  child.stdin.write(start ? FRAMED_PREAMBLE : FRAMED_PREAMBLE_NO_START);
  return {
    write: (bytes) => {
      if (!closed) child.stdin.write(bytes);
    },
    pause: () => child.stdout.pause(),
    resume: () => child.stdout.resume(),
    close: () => {
      if (closed) return;
      closedByUs = true;
      // End of input is the whole goodbye: the remote connect closes its agent connection and exits.
      child.stdin.end();
      child.stdout.destroy();
      // The process is left to exit by itself; it must not keep us alive meanwhile.
      child.unref();
      (child.stderr as unknown as { unref?: () => void }).unref?.();
      finish();
    },
    get closed() {
      return closed;
    },
  };
}

/** Why the transport ended while we still used it, in one line (with ssh's own words kept apart). */
function endError(target: RemoteTarget, code: number | null, signal: NodeJS.Signals | null, talked: boolean, stderr: string): Error {
  const lines = stderr.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  const last = lines.at(-1) ?? "";
  const how = signal !== null ? `was killed by ${signal}` : `exited with status ${code}`;
  const transport = target.kind === "ssh" ? "ssh" : "the --via command";
  if (talked || signal !== null || code === 255 || target.kind === "via") {
    // Killed (by a person, an OOM killer, a test) is a cut connection whether or not the agent had answered yet.
    if (!talked && signal === null) {
      // ssh's own message (host key, authentication) is shown as it wrote it, before this line.
      return new RemoteLinkError("connection_lost", `could not connect to ${target.shown}: ${transport} ${how}`, stderr);
    }
    return new RemoteLinkError("connection_lost", `the connection to ${target.shown} was lost: ${transport} ${how}${last === "" ? "" : ` (${last})`}; what runs there keeps running, and the next call finds it`, "");
  }
  if (code === NO_AGENT_STATUS) return new AgentUnavailableError(`no agent is running on ${target.shown}`);
  if (code === 127) {
    return new RemoteLinkError("internal", `${target.shown} has no corral on the remote PATH (${last || "status 127"}); give its path: --host ${target.kind === "ssh" ? target.destination : "HOST"}:/path/to/corral`, "");
  }
  return new RemoteLinkError("internal", `the corral connect on ${target.shown} ${how}${last === "" ? "" : `: ${last.replace(/^corral: /, "")}`}`, "");
}
