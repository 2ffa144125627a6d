// terminal_exec: one command line run in a terminal session's hooked shell
// (the agent's `exec`, as `pty exec`), answered with the command's own
// output, shaped for a model as `run`'s is, and its exit status, signal,
// working directory and duration. The agent types the line and reads the
// shell's marks; this server keeps the request in flight on a connection
// of its own, so a call answers within the wait cap (done:false and a
// cursor) while the command goes on. Cancelling a call ends only the wait:
// the command keeps running in the session, as a person's would.
import path from "node:path";
import process from "node:process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { agentCall, progressWhile } from "../agent-call.ts";
import { pause, waitSlice } from "../cursors.ts";
import { checkCommandLine } from "../launch.ts";
import { cleanText, streamForModel, type ModelText } from "../model-text.ts";
import { mcpSpillDir } from "../runs.ts";
import { spilledStream } from "../spilled-stream.ts";
import { SERVER_ENDING, type Tool, type ToolAnswer, type ToolCall, ToolError } from "../tool.ts";
import { bool, ELISION, integer, nullable, object, str, WAIT_INPUT, WAIT_OUTPUT } from "./schema-parts.ts";
import type { ExecReply } from "../../../../lib/agent/protocol/messages.ts";
import { DEFAULT_INTERRUPT_GRACE_MS } from "../../../../lib/core/defaults.ts";

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** A command in flight: the agent's answer comes on its own connection, whoever waits for it. */
interface PendingExec {
  readonly session: string;
  readonly command: string;
  readonly startedAt: number;
  readonly spill: string;
  readonly keepSpill: boolean;
  readonly keepBytes: number;
  readonly settled: Promise<{ reply: ExecReply } | { error: ToolError }>;
  readonly close: () => void;
  outcome: { reply: ExecReply } | { error: ToolError } | null;
}

let spills = 0;

export const terminalExecTool: Tool = {
  name: "terminal_exec",
  title: "Run a command line in a terminal session's shell",
  description: [
    "Types one command line into a session's shell (opened by terminal_open with shell integration: bash, zsh, fish",
    "or sh) and answers once it finished, with its own output (ANSI removed, redraws collapsed, head plus tail",
    "within the budget with the cut stated, every byte in `spill`), its exit status (128+N when signal N killed",
    "it), the signal, the shell's directory after it and its duration. The shell's state carries over: cd and",
    "export persist for the next call. A call waits at most the server's wait cap: then done:false with a",
    "`cursor`; call terminal_exec with just the cursor to keep waiting. Cancelling ends only the wait: the command",
    "keeps running in the session (terminal_send keys [\"C-c\"] stops it). At the timeout it keeps running too,",
    "unless `interrupt` is true.",
  ].join(" "),
  readOnly: false,
  starts: true,
  inputSchema: object({
    session: str("Session id or name (terminal_open or terminal_list)"),
    command: str("The command line, as typed at the shell's prompt (several lines run as one group)"),
    timeoutMs: integer(`Give up waiting after this long in all, across cursors (default ${DEFAULT_TIMEOUT_MS} ms)`, 1),
    interrupt: bool("At the timeout, send Ctrl-C and wait briefly for the shell's prompt (default false: the command keeps running)"),
    graceMs: integer(`With interrupt: how long to wait for the shell's prompt after the Ctrl-C (default ${DEFAULT_INTERRUPT_GRACE_MS})`),
    budget: integer("Characters of output in the answer (default: the server's --budget)", 200),
    spill: bool("Keep every byte of the output in a file (default true)"),
    ...WAIT_INPUT,
  }),
  outputSchema: object({
    ...WAIT_OUTPUT,
    session: str("the session"),
    command: str("the command line"),
    status: nullable({ type: "integer", description: "the exit status as the shell gives it ($?): 128+N when signal N killed the command (null until done)" }),
    signal: nullable(str("the signal's name when the status is 128+N, else null")),
    cwd: nullable(str("the shell's working directory after the command (null: unknown)")),
    durationMs: nullable(integer("how long the command ran (null until done)")),
    output: str("the command's own output (stdout and stderr as the terminal showed them), shaped for a model; while running, what came so far"),
    bytes: integer("bytes of output in all (line ends as LF)"),
    lines: integer("lines of output in all"),
    elided: ELISION,
    clippedLines: integer("lines clipped in the middle for length"),
    spill: nullable(str("file holding every byte of the output")),
    from: nullable(integer("output position where the command's output starts in the session's stream")),
    to: nullable(integer("output position where it ends (terminal_wait's `after`)")),
    elapsedMs: integer("since this server typed the command"),
  }, ["done", "session", "command", "status", "signal", "cwd", "durationMs", "output", "bytes", "lines", "elided", "spill"]),

  async answer(input, call): Promise<ToolAnswer> {
    const pending = typeof input.cursor === "string" ? call.cursors.take<PendingExec>("terminal_exec", input.cursor) : await start(input, call);
    const slice = waitSlice(null, call.options.waitCapMs);
    call.progress(0, `${pending.command}: running in session ${pending.session}`);
    const stop = progressWhile(call, `${pending.command} in session ${pending.session}`);
    try {
      await Promise.race([pending.settled, pause(slice.ms, AbortSignal.any([call.signal, call.ending]))]);
    } finally {
      stop();
    }
    if (pending.outcome === null && call.signal.aborted) {
      // Only the wait ends: the agent stops watching, the shell goes on with the command.
      pending.close();
      throw new ToolError("cancelled", `the wait for ${JSON.stringify(pending.command.slice(0, 80))} in session ${pending.session} was cancelled; the command keeps running in the session (terminal_screen shows it, terminal_send keys ["C-c"] stops it)`);
    }
    if (pending.outcome === null) {
      const cursor = call.cursors.issue("terminal_exec", pending);
      return await answerOf(pending, null, cursor, call);
    }
    if ("error" in pending.outcome) throw pending.outcome.error;
    return await answerOf(pending, pending.outcome.reply, null, call);
  },
};

async function start(input: Record<string, unknown>, call: ToolCall): Promise<PendingExec> {
  if (typeof input.session !== "string" || input.session === "") throw new ToolError("bad_request", '"session" is required (an id or name from terminal_open or terminal_list), or a "cursor"');
  if (typeof input.command !== "string") throw new ToolError("bad_request", '"command" is required: the command line to run in the session\'s shell');
  checkCommandLine(input.command, call, "give one plain command line");
  const session = input.session;
  const command = input.command;
  const budget = typeof input.budget === "number" ? input.budget : call.options.budget;
  const keepBytes = Math.ceil(budget / 2);
  const spill = path.join(mcpSpillDir(call.env), `exec-${process.pid}-${++spills}.log`);
  const own = await call.waitingAgent().catch((error: Error) => {
    throw new ToolError("agent_gone", `the agent could not be reached: ${error.message}`);
  });
  call.execs.hold(own);
  const pending: PendingExec = {
    session,
    command,
    startedAt: Date.now(),
    spill,
    keepSpill: input.spill !== false,
    keepBytes,
    close: () => call.execs.release(own),
    outcome: null,
    settled: agentCall(call, {
      op: "exec",
      session,
      command,
      timeoutMs: typeof input.timeoutMs === "number" ? input.timeoutMs : DEFAULT_TIMEOUT_MS,
      ...(input.interrupt === true ? { interrupt: true } : {}),
      ...(typeof input.graceMs === "number" ? { graceMs: input.graceMs } : {}),
      // The agent's own shown text is only the fallback when the spill file cannot be read.
      headBytes: keepBytes,
      maxBytes: keepBytes,
      spill,
    }, own).then(
      (reply) => (pending.outcome = { reply }),
      (error: unknown) => (pending.outcome = { error: mcpError(error instanceof ToolError ? error : new ToolError("internal", String(error)), pending) }),
    ).finally(() => call.execs.release(own)),
  };
  return pending;
}

/** The agent's errors, with what to do through this server's tools (its messages name the CLI's). */
function mcpError(error: ToolError, pending: PendingExec): ToolError {
  const { session } = pending;
  switch (error.code) {
    case "no_shell_integration":
      return new ToolError(error.code, `${error.message}; for terminal_exec, open a shell with terminal_open argv ["bash"] (or zsh, fish, sh; no arguments but -i, bash also --norc and --noprofile, fish --no-config; not shellIntegration:false)`);
    case "shell_busy":
      return new ToolError(error.code, `${error.message}; through this server: resume the earlier terminal_exec with its cursor, terminal_wait on ${session} with commandDone:true, or terminal_send keys ["C-c"] to stop it`);
    case "timeout":
      // The output that came before the timeout stays in the spill file (kept even with spill:false: it is all there is).
      return new ToolError(error.code, `${error.message}${/still running|may still run/.test(error.message) ? `; through this server: terminal_wait on ${session} with commandDone:true, or terminal_send keys ["C-c"] (or interrupt:true next time)` : ""}${existsSync(pending.spill) ? `; its output so far: ${pending.spill}` : ""}`);
    default:
      return error;
  }
}

async function answerOf(pending: PendingExec, reply: ExecReply | null, cursor: string | null, call: ToolCall): Promise<ToolAnswer> {
  const stream = await spilledStream(pending.spill, pending.keepBytes);
  const whole = stream !== null && (reply === null || stream.bytes === reply.bytes);
  let shaped: ModelText;
  if (whole) {
    shaped = streamForModel(stream, call.options.maxLineChars, pending.keepSpill ? pending.spill : null);
  } else {
    // The spill file could not be read whole: the agent's own head, marker line and tail, cleaned.
    const cleaned = cleanText(reply?.output ?? "", call.options.maxLineChars);
    const shown = reply?.output ?? "";
    const elided = reply?.truncated === true
      ? { bytes: Math.max(0, reply.bytes - new TextEncoder().encode(shown).length), lines: Math.max(0, reply.lines - (shown.split("\n").length - 2)), keptIn: null }
      : null;
    shaped = { text: cleaned.text, clippedLines: cleaned.clippedLines, elided };
  }
  const done = reply !== null;
  if (done && !pending.keepSpill) await rm(pending.spill, { force: true });
  const structured = {
    done,
    ...(cursor !== null ? { cursor } : {}),
    session: pending.session,
    command: pending.command,
    status: reply?.status ?? null,
    signal: reply?.signal ?? null,
    cwd: reply?.cwd ?? null,
    durationMs: reply?.durationMs ?? null,
    output: shaped.text,
    bytes: reply?.bytes ?? stream?.bytes ?? 0,
    lines: reply?.lines ?? stream?.lineFeeds ?? 0,
    elided: shaped.elided,
    clippedLines: shaped.clippedLines,
    spill: pending.keepSpill && whole ? pending.spill : null,
    from: reply?.from ?? null,
    to: reply?.to ?? null,
    elapsedMs: Date.now() - pending.startedAt,
  };
  const head = !done && call.ending.aborted
    ? `${SERVER_ENDING}; the command keeps running in session ${pending.session}: ${pending.command} (${structured.bytes} bytes so far)`
    : !done
    ? `still running in session ${pending.session}: ${pending.command} (${structured.bytes} bytes so far); call terminal_exec with cursor ${cursor} to keep waiting`
    : `${pending.command}: exit status ${structured.status}${structured.signal !== null ? ` (${structured.signal})` : ""}; ${structured.lines} lines, ${structured.bytes} bytes; cwd ${structured.cwd ?? "unknown"}`;
  const notes = structured.spill !== null ? [`all output: ${structured.spill}`] : [];
  return { structured, text: [head, ...notes, "---", shaped.text].join("\n") };
}
