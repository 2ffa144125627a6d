// The commands the agent runs for the native client (native/client/), with
// the very code the JavaScript CLI runs: the same command table, against a
// context whose stdout, stderr, environment and terminal width are the
// client's, so help, errors, JSON and exit statuses are byte-identical
// through both doors (test/cli/native-client/ compares them). Served: the
// commands the agent can answer alone (a session's open, send, screen, wait,
// list, resize, close, exec; run --bg, jobs and their waits; collect --job;
// reap; agent status; --version and --help, and the words `version` and
// `help COMMAND...`), given the caller's directory
// and environment as data. Everything else, and any command
// line whose meaning depends on the caller's process (a relative path the
// agent would resolve against its own directory; --stdin from a client that
// cannot stream it), is refused before any output: the client then execs
// the JavaScript CLI. A client that can (the request's `stdin`) is asked for
// its stdin one frame at a time as the command reads it. `connect` is
// served to a client that pushes its stdin (the request's `lines`): its
// JSON lines become requests of the client's own connection
// (cli/commands/connect/served-lines.ts).
import { Writable } from "node:stream";
import tty from "node:tty";
import type { CommandInput, CommandLineDoor, CommandOutput, CommandRequests, LineLedger } from "../../../lib/agent/server/command-line-door.ts";
import type { CommandLineRequest } from "../../../lib/agent/protocol/operations.ts";
import type { CorralContext, CorralProcess } from "../../shared/context.ts";

/**
 * `pty` subcommands the agent does not run: they hold a terminal, name a
 * file, or serve. `pty open` is served: a client reaches the agent only when
 * one runs, so the JavaScript CLI still starts the first one.
 */
const UNSERVED_PTY = new Set(["attach", "record", "view"]);
/** Flags whose value is a file the command opens in the caller's directory. */
const CALLER_FLAGS = new Set(["--svg", "--html", "--spill", "--record", "--png", "--cast", "--facts"]);

/** Flags that send the command to another machine's agent (lib/agent/client/remote/). */
const REMOTE_FLAGS = new Set(["--host", "--via"]);

/** How a command line is run over the whole command table (CorralContext.runCommandLine). */
type RunCommandLine = (argv: readonly string[], corralProcess: CorralProcess) => Promise<number>;

/** The door the agent is started with (cli/commands/agent/impl.ts). */
export function commandLineDoor(runCommandLine: RunCommandLine): CommandLineDoor {
  return { refusal, run: (request, output, signal, input, requests, ledger) => run(runCommandLine, request, output, signal, input, requests, ledger) };
}

function refusal(request: CommandLineRequest): string | null {
  for (const name of ["CORRAL_SOCKET", "CORRAL_STATE_DIR", "CORRAL_CONFIG"]) {
    const value = request.env[name];
    // Resolved against the caller's directory by the JavaScript CLI; the agent has another.
    if (value !== undefined && value !== "" && !value.startsWith("/")) return `a relative ${name}`;
  }
  const argv = request.argv;
  const [first, second] = argv;
  const words = argv.indexOf("--") < 0 ? argv : argv.slice(0, argv.indexOf("--"));
  if (words.some((word) => CALLER_FLAGS.has(word.split("=")[0] as string))) return "a flag that names a file";
  if (request.stdin !== true && words.some((word) => word === "--stdin" || word.startsWith("--stdin="))) return "--stdin from a client that does not stream it";
  // Another machine's agent: reached from the caller's process (its ssh, its keys), never from this agent.
  if (words.some((word) => REMOTE_FLAGS.has(word.split("=")[0] as string)) || (request.env.CORRAL_HOST ?? "") !== "") return "another machine's agent (--host, --via, CORRAL_HOST)";
  const socketAt = words.findIndex((word) => word === "--socket" || word.startsWith("--socket="));
  if (socketAt >= 0) {
    const value = words[socketAt]!.startsWith("--socket=") ? words[socketAt]!.slice(9) : (words[socketAt + 1] ?? "");
    if (!value.startsWith("/")) return "a relative --socket";
  }
  if (argv.length === 1 && (first === "--version" || first === "-v" || first === "--help" || first === "-h")) return null;
  // `corral version` and `corral help COMMAND...` (cli/run-routes.ts): as --version, and as COMMAND... --help is.
  if (first === "version") return null;
  if (first === "help") return refusal({ ...request, argv: [...argv.slice(1), "--help"] });
  if (first === "pty" && (second === undefined || !UNSERVED_PTY.has(second))) return null;
  if (first === "jobs" || first === "reap") return null;
  if (first === "agent" && (second === "status" || second === "--help" || second === "-h")) return null;
  // connect, to a client that pushes its stdin: its lines are this connection's requests.
  if (first === "connect" && request.lines === true && isPlainConnect(argv)) return null;
  if (first === "collect" && words.some((word) => word === "--job" || word.startsWith("--job="))) return null;
  if (first === "run" && isBackgroundRun(words)) return null;
  return `corral ${first ?? ""} is run by the JavaScript CLI`;
}

/**
 * `run --bg`: a job the agent starts anyway, printed by its id. Only the
 * plain flag: with `--tty` the job holds the caller's terminal, and a
 * spelling stricli might read otherwise (`--bg=...`, a `--no...` negation)
 * goes to the JavaScript CLI, which reads it as it always did.
 */
function isBackgroundRun(words: readonly string[]): boolean {
  return words.includes("--bg") && !words.some((word) => word.startsWith("--tty") || word.startsWith("--bg=") || word.startsWith("--no"));
}

/** `connect` with at most --socket (already checked absolute): the form the agent serves. */
function isPlainConnect(argv: readonly string[]): boolean {
  const rest = argv.slice(1);
  if (rest.length === 0) return true;
  if (rest.length === 1) return rest[0]!.startsWith("--socket=");
  return rest.length === 2 && rest[0] === "--socket";
}

async function run(
  runCommandLine: RunCommandLine,
  request: CommandLineRequest,
  output: CommandOutput,
  signal: AbortSignal,
  input: CommandInput,
  requests: CommandRequests,
  ledger?: LineLedger,
): Promise<number> {
  const stdout = clientStream(1, output, request.stdoutTty === true, request);
  const stderr = clientStream(2, output, request.stderrTty === true, request);
  if (request.argv[0] === "connect" && request.lines === true) {
    const corralProcess: CorralProcess = { stdout, stderr, env: request.env, callerGone: signal };
    let status = 0;
    // Loaded on the first served connect, not at the agent's start (which must fit a small descriptor limit).
    try {
      const [{ loadConfig }, { serveLines }] = await Promise.all([import("../../../lib/config/load.ts"), import("../connect/served-lines.ts")]);
      const config = await loadConfig(request.env);
      status = await serveLines(input, output, requests, { env: request.env, cwd: request.cwd, config, remote: false }, ledger);
    } catch (error) {
      const { reportFailure } = await import("../../shared/agent-reach.ts");
      reportFailure({ process: corralProcess } as CorralContext, error);
      status = Number(corralProcess.exitCode ?? 1);
    }
    await Promise.all([finished(stdout), finished(stderr)]);
    return status;
  }
  // Never the agent's own stdin: the client's when it streams it, else nothing.
  const stdin = request.stdin === true ? clientStdin(input) : noInput();
  const corralProcess: CorralProcess = { stdout, stderr, env: request.env, stdin, callerGone: signal, cwd: request.cwd };
  const status = await runCommandLine(request.argv, corralProcess);
  await Promise.all([finished(stdout), finished(stderr)]);
  return status;
}

/** A stream that looks to the command like the client's descriptor: a terminal of its width, or not. */
function clientStream(fd: 1 | 2, output: CommandOutput, isTerminal: boolean, request: CommandLineRequest): NodeJS.WriteStream {
  const stream = new Writable({
    write(chunk: Uint8Array | string, _encoding, done) {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      if (output.write(fd, bytes)) done();
      else void output.drained().then(() => done());
    },
  });
  const facts = stream as unknown as { isTTY: boolean; columns?: number; rows?: number; fd: number; getColorDepth: (env?: object) => number; hasColors: (count?: number) => boolean };
  facts.fd = fd;
  facts.isTTY = isTerminal;
  facts.getColorDepth = () => 1;
  facts.hasColors = () => false;
  if (isTerminal) {
    if (request.columns !== undefined) facts.columns = request.columns;
    // Node's own answer for a terminal under the client's environment (TERM, COLORTERM, NO_COLOR, ...).
    facts.getColorDepth = (env?: object) => tty.WriteStream.prototype.getColorDepth.call(stream, (env ?? request.env) as NodeJS.ProcessEnv);
    facts.hasColors = (count = 16) => 2 ** facts.getColorDepth() >= count;
  }
  return stream as unknown as NodeJS.WriteStream;
}

/** The client's stdin, read as the command asks for it. */
async function* clientStdin(input: CommandInput): AsyncGenerator<Uint8Array> {
  for (;;) {
    const bytes = await input.read();
    if (bytes === null) return;
    yield bytes;
  }
}

async function* noInput(): AsyncGenerator<Uint8Array> {}

function finished(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const writable = stream as unknown as Writable;
    if (writable.writableFinished) return resolve();
    writable.once("finish", () => resolve());
    writable.once("error", () => resolve());
    if (!writable.writableEnded) writable.end();
  });
}
