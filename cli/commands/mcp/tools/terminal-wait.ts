// Waiting on a terminal session without polling: terminal_wait (and
// terminal_send's `wait`) asks the agent to wait for a condition on the
// output after a position, for at most the server's cap. When the cap
// comes first the answer is done:false with a cursor that resumes from
// the same position, so nothing printed meanwhile is missed. Cancelling
// the call ends only the wait: the session keeps running.
import { agentCall, progressWhile } from "../agent-call.ts";
import { waitSlice } from "../cursors.ts";
import { lastLinesWithin } from "../model-text.ts";
import { SERVER_ENDING, type Tool, type ToolAnswer, type ToolCall, ToolError } from "../tool.ts";
import { bool, integer, nullable, object, str, strings, WAIT_INPUT, WAIT_OUTPUT } from "./schema-parts.ts";
import type { ScreenView, WaitReply } from "../../../../lib/agent/protocol/messages.ts";

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** The conditions, as `pty wait` names them; the first met wins. */
export const CONDITIONS_INPUT = {
  text: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }], description: "Text to wait for in the output (and on the screen)" },
  regex: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }], description: "Regular expressions to wait for" },
  stableMs: integer("The screen has not changed for this long", 1),
  ready: bool("The program waits for input (blocked reading the terminal): the command finished, no prompt pattern needed"),
  exit: bool("The program exited"),
  timeoutMs: integer(`Give up after this long in all, across cursors (default ${DEFAULT_TIMEOUT_MS} ms)`, 1),
};

/** What a wait answers. */
export const WAITED = object({
  ...WAIT_OUTPUT,
  fired: nullable({ type: "string", enum: ["text", "regex", "stable", "ready", "exit", "command", "timeout"], description: "the condition met; timeout: none within timeoutMs" }),
  match: nullable(object({ text: str("what matched"), groups: { type: "array", items: nullable({ type: "string" }) }, pattern: str("the pattern that matched") }, ["text", "pattern"])),
  position: integer("output position when the wait ended (or the one it resumes from)"),
  command: nullable(object({
    status: integer("its exit status ($?: 128+N for signal N)"),
    from: integer("output position where its output starts"),
    to: integer("where it ends"),
    cwd: nullable(str("the shell's directory after it")),
  }, ["status", "from", "to", "cwd"], "fired command: the command the hooked shell finished")),
  awaitingInput: nullable(bool("the terminal's foreground program waits for input (null: unknown)")),
  screen: strings("the visible screen when the wait ended (trailing blank rows left out)"),
}, ["done", "fired", "position", "screen"]);

interface PendingWait {
  readonly session: string;
  readonly conditions: Record<string, unknown>;
  readonly after: number | undefined;
  readonly deadline: number;
}

/** Input to type first, in the same request as the wait (terminal_send): the wait starts where it went in, with no gap. */
export interface TypedInput {
  readonly text?: string;
  readonly keys?: string[];
}

/**
 * One wait call: from `after` (undefined: the agent's default start), until a
 * condition, the timeout or the cap. With `input`, one `send` request types
 * it and waits (as `pty send --wait-*`); `sent` then says what went in.
 */
export async function waitOnSession(
  call: ToolCall,
  session: string,
  conditions: Record<string, unknown>,
  after: number | undefined,
  deadline?: number,
  input?: TypedInput,
): Promise<ToolAnswer & { sent?: { sent: number; at: number } }> {
  const total = typeof conditions.timeoutMs === "number" ? conditions.timeoutMs : DEFAULT_TIMEOUT_MS;
  const until = deadline ?? Date.now() + total;
  const slice = waitSlice(until, call.options.waitCapMs);
  const list = (v: unknown) => (typeof v === "string" ? [v] : Array.isArray(v) ? (v as string[]) : undefined);
  const text = list(conditions.text);
  const regex = list(conditions.regex);
  const waitFields = {
    ...(text !== undefined ? { text } : {}),
    ...(regex !== undefined ? { regex } : {}),
    ...(typeof conditions.stableMs === "number" ? { stableMs: conditions.stableMs } : {}),
    ...(conditions.ready === true ? { ready: true } : {}),
    ...(conditions.exit === true ? { exit: true } : {}),
    ...(conditions.commandDone === true ? { commandDone: true } : {}),
    timeoutMs: Math.max(1, slice.ms),
  };
  const stop = progressWhile(call, `waiting on session ${session}`);
  let reply: WaitReply | null = null;
  let sent: { sent: number; at: number } | undefined;
  const own = await call.waitingAgent().catch((error: Error) => {
    throw new ToolError("agent_gone", `the agent could not be reached: ${error.message}`);
  });
  // Where a resumed wait starts when this one types first and reaches the cap (no `at` comes back then).
  let from = after;
  const waiting = async (): Promise<WaitReply> => {
    if (input === undefined) return await agentCall(call, { op: "wait", session, ...waitFields, ...(after !== undefined ? { after } : {}) }, own);
    from = (await agentCall(call, { op: "screen", session }, own)).screen.position;
    const typed = await agentCall(call, { op: "send", session, ...input, wait: waitFields }, own);
    sent = { sent: typed.sent, at: typed.at };
    return typed.wait as WaitReply;
  };
  try {
    reply = await Promise.race([
      waiting(),
      // The server is ending: the wait answers with what it has.
      new Promise<null>((resolve) => call.ending.addEventListener("abort", () => resolve(null), { once: true })),
      new Promise<never>((_, reject) => call.signal.addEventListener("abort", () => reject(new ToolError("cancelled", `the wait on session ${session} was cancelled; the session keeps running`)), { once: true })),
    ]);
  } catch (error) {
    if (!(error instanceof ToolError) || error.code !== "timeout") throw error;
  } finally {
    stop();
    own.close();
  }
  const withSent = (answer: ToolAnswer) => (sent === undefined ? answer : { ...answer, sent });
  if (reply === null) {
    const screen = await agentCall(call, { op: "screen", session });
    const start = from ?? screen.screen.position;
    if (slice.capped || call.ending.aborted) {
      const cursor = call.cursors.issue("terminal_wait", { session, conditions, after: start, deadline: until } satisfies PendingWait);
      return withSent(waited(call, { done: false, cursor, fired: null, match: null, position: start }, screen.screen));
    }
    return withSent(waited(call, { done: true, fired: "timeout", match: null, position: screen.screen.position }, screen.screen));
  }
  const match = reply.match === undefined ? null : { text: reply.match.text, groups: [...reply.match.groups], pattern: reply.match.pattern };
  const command = reply.command === undefined ? null : { status: reply.command.status, from: reply.command.from, to: reply.command.to, cwd: reply.command.cwd };
  return withSent(waited(call, { done: true, fired: reply.fired, match, position: reply.position, ...(command !== null ? { command } : {}) }, reply.screen));
}

function waited(call: ToolCall, how: { done: boolean; cursor?: string; fired: string | null; match: { text: string } | null; position: number; command?: { status: number } }, screen: ScreenView): ToolAnswer {
  const rows = [...screen.lines];
  while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
  const shown = lastLinesWithin(rows, call.options.budget, call.options.maxLineChars);
  const awaitingInput = screen.foreground?.waitingForInput ?? null;
  const structured = { ...how, awaitingInput, screen: shown.lines };
  const head = !how.done && call.ending.aborted
    ? `${SERVER_ENDING}; no condition was met yet, the session keeps running`
    : !how.done
    ? `still waiting (server cap reached); call terminal_wait with cursor ${how.cursor}`
    : how.fired === "timeout" ? "timed out: no condition was met"
    : how.command !== undefined ? `command: the shell finished a command with status ${how.command.status}, at position ${how.position}`
    : `${how.fired}${how.match === null ? "" : `: ${JSON.stringify(how.match.text)}`} at position ${how.position}`;
  const input = awaitingInput === true ? " (the program waits for input)" : "";
  return { structured, text: `${head}${input}\n---\n${shown.lines.join("\n")}` };
}

export const terminalWaitTool: Tool = {
  name: "terminal_wait",
  title: "Wait for a terminal session",
  description: [
    "Waits until the session's output (after `after`, a position from terminal_send or an earlier answer) shows",
    "`text` or `regex`, the screen is stable for `stableMs`, the program waits for input (`ready`), it exits, or",
    "(`commandDone`) the session's hooked shell finishes a command (at once when none runs; see terminal_exec).",
    "Answers within the server's wait cap: done:false with a `cursor` when the cap came first; pass the cursor",
    "to keep waiting from the same position. Cancelling ends only the wait.",
  ].join(" "),
  readOnly: true,
  starts: false,
  inputSchema: object({
    session: str("Session id or name"),
    ...CONDITIONS_INPUT,
    commandDone: bool("The session's hooked shell finished a command: the first finish after `after`, else the running command's, else at once (a session without shell integration is refused)"),
    after: integer("Only output after this position counts (default: the agent's start, see pty wait)"),
    ...WAIT_INPUT,
  }),
  outputSchema: WAITED,
  async answer(input, call) {
    if (typeof input.cursor === "string") {
      const pending = call.cursors.take<PendingWait>("terminal_wait", input.cursor);
      return await waitOnSession(call, pending.session, pending.conditions, pending.after, pending.deadline);
    }
    if (typeof input.session !== "string" || input.session === "") throw new ToolError("bad_request", '"session" is required (an id or name from terminal_open or terminal_list), or a "cursor"');
    const { session, after, cursor: _c, ...conditions } = input;
    return await waitOnSession(call, session, conditions, typeof after === "number" ? after : undefined);
  },
};
