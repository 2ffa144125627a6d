// The terminal tools that change a session: terminal_open (a program on a
// new terminal in the agent, so it outlives this server and a person can
// `corral pty attach` to it), terminal_send (text and named keys, with the
// same wait conditions as `pty send`), terminal_close and terminal_list.
// Sessions are the agent's: the CLI and this server see the same ones.
import { withheldNote } from "./withheld-note.ts";
import process from "node:process";
import { prepareLaunch } from "../launch.ts";
import { agentCall } from "../agent-call.ts";
import type { Tool, ToolAnswer } from "../tool.ts";
import { bool, COMMAND_INPUT, integer, object, SCRUBBED, SESSION, str, strings } from "./schema-parts.ts";
import { CONDITIONS_INPUT, WAITED, waitOnSession } from "./terminal-wait.ts";
import type { SessionInfo } from "../../../../lib/agent/protocol/messages.ts";
import { DEFAULT_COLS, DEFAULT_GRACE_MS, DEFAULT_ROWS } from "../../../../lib/core/defaults.ts";

/** Names that describe the server's own terminal, wrong inside the session's. */
const TERMINAL_NAMES = ["COLUMNS", "LINES", "TERMCAP", "TMUX", "TMUX_PANE", "STY", "WINDOWID"];

const sessionOf = (s: SessionInfo) => ({
  id: s.id,
  name: s.name,
  pid: s.pid,
  argv: [...s.argv],
  alive: s.alive,
  exit: s.exit === null ? null : { code: s.exit.code, signal: s.exit.signal, timedOut: s.exit.timedOut, forced: s.exit.forced, durationMs: s.exit.durationMs, outputComplete: s.exit.outputComplete },
  position: s.position,
  size: { cols: s.size.cols, rows: s.size.rows },
  shell: s.shell,
});
const sessionLine = (s: ReturnType<typeof sessionOf>) =>
  `session ${s.id}${s.name === null ? "" : ` (${s.name})`}: ${s.argv.join(" ")}, pid ${s.pid}, ${s.alive ? "running" : `exited ${s.exit?.signal ?? s.exit?.code}`}, ${s.size.cols}x${s.size.rows}${s.shell === null ? "" : `, ${s.shell} hooked for terminal_exec`}`;

export const terminalOpenTool: Tool = {
  name: "terminal_open",
  title: "Open a terminal session",
  description: "Starts a program on a new terminal held by the corral agent; it keeps running after this call and this server (a person can `corral pty attach` to it). Read it with terminal_screen, type with terminal_send.",
  readOnly: false,
  starts: true,
  inputSchema: object({
    ...COMMAND_INPUT,
    name: str("A name to refer to it by (letters, digits, . _ -; starts with a letter)"),
    cols: integer(`Columns (default ${DEFAULT_COLS})`, 1),
    rows: integer(`Rows (default ${DEFAULT_ROWS})`, 1),
    shellIntegration: bool("Hook a shell (bash, zsh, fish, sh with no arguments but -i; bash also --norc, --noprofile; fish --no-config) so terminal_exec can run commands in it (default true; false leaves it as started)"),
  }),
  outputSchema: object({ session: SESSION, scrubbed: SCRUBBED }, ["session", "scrubbed"]),
  async answer(input, call) {
    const launch = prepareLaunch(input, call, false);
    // TERM is the session's own (the call's `env` may choose it), never the server's terminal type.
    const given = (input.env ?? {}) as Record<string, string>;
    const env: Record<string, string> = { ...launch.env, TERM: given.TERM ?? call.config.terminal.term };
    for (const name of TERMINAL_NAMES) if (!(name in given)) delete env[name];
    const reply = await agentCall(call, {
      op: "open",
      argv: launch.argv,
      env,
      cwd: typeof input.cwd === "string" ? input.cwd : process.cwd(),
      ...(typeof input.name === "string" ? { name: input.name } : {}),
      ...(typeof input.cols === "number" ? { cols: input.cols } : {}),
      ...(typeof input.rows === "number" ? { rows: input.rows } : {}),
      ...(input.shellIntegration === false ? { shellIntegration: false } : {}),
    });
    const session = sessionOf(reply.session);
    const scrubbedNote = withheldNote(launch.scrubbed);
    return { structured: { session, scrubbed: [...launch.scrubbed] }, text: `${sessionLine(session)}${scrubbedNote}` };
  },
};

export const terminalSendTool: Tool = {
  name: "terminal_send",
  title: "Type into a terminal session",
  description: [
    "Sends `text` literally, then `keys` by name (tmux names: Enter, Tab, Escape, BSpace, Up, Down, Left, Right,",
    "Home, End, PageUp, PageDown, F1-F12, C-c, M-x ...). With `wait`, then waits for a condition on the output",
    "after the input (text, regex, stableMs, ready: the program waits for input, exit) and answers with the screen;",
    "a wait longer than the server's cap answers done:false with a cursor for terminal_wait.",
  ].join(" "),
  readOnly: false,
  starts: false,
  inputSchema: object({
    session: str("Session id or name"),
    text: str("Text typed as is"),
    keys: strings("Named keys pressed after the text"),
    wait: object(CONDITIONS_INPUT, [], "Wait after sending (as terminal_wait)"),
  }, ["session"]),
  outputSchema: object({
    sent: integer("bytes sent (0 when a wait reached the cap or timed out: the agent answers those without the count, but the input went in)"),
    at: integer("the output position when the input went in"),
    waited: WAITED,
  }, ["sent", "at"]),
  async answer(input, call) {
    const session = String(input.session);
    const typed = {
      ...(typeof input.text === "string" ? { text: input.text } : {}),
      ...(Array.isArray(input.keys) ? { keys: input.keys as string[] } : {}),
    };
    const line = (r: { sent: number; at: number }) => `sent ${r.sent} bytes to session ${session} at position ${r.at}`;
    if (typeof input.wait !== "object" || input.wait === null) {
      const reply = await agentCall(call, { op: "send", session, ...typed });
      return { structured: { sent: reply.sent, at: reply.at }, text: line(reply) };
    }
    // One request types and waits, so output that comes at once is not missed between them.
    const waited = await waitOnSession(call, session, input.wait as Record<string, unknown>, undefined, undefined, typed);
    const sent = waited.sent ?? { sent: 0, at: (waited.structured as { position: number }).position };
    return { structured: { ...sent, waited: waited.structured }, text: `${line(sent)}\n${waited.text}` };
  },
};

export const terminalCloseTool: Tool = {
  name: "terminal_close",
  title: "Close a terminal session",
  description: "Hangs up the session's terminal (SIGHUP), then ends its whole process tree after the grace (at once with force); answers once it is gone.",
  readOnly: false,
  starts: false,
  inputSchema: object({ session: str("Session id or name"), graceMs: integer(`Between SIGHUP and the end of the tree (default ${DEFAULT_GRACE_MS})`), force: bool("End the tree at once") }, ["session"]),
  outputSchema: object({ session: SESSION }, ["session"]),
  async answer(input, call) {
    const reply = await agentCall(call, {
      op: "close",
      session: String(input.session),
      ...(typeof input.graceMs === "number" ? { graceMs: input.graceMs } : {}),
      ...(input.force === true ? { force: true } : {}),
    });
    const session = sessionOf(reply.session);
    return { structured: { session }, text: `closed: ${sessionLine(session)}` };
  },
};

export const terminalListTool: Tool = {
  name: "terminal_list",
  title: "List terminal sessions",
  description: "Every terminal session the agent holds, opened by this server, another one or the CLI.",
  readOnly: true,
  starts: false,
  inputSchema: object({}),
  outputSchema: object({ sessions: { type: "array", items: SESSION } }, ["sessions"]),
  async answer(_input, call): Promise<ToolAnswer> {
    const reply = await agentCall(call, { op: "list" });
    const sessions = reply.sessions.map(sessionOf);
    return { structured: { sessions }, text: sessions.length === 0 ? "no sessions" : sessions.map(sessionLine).join("\n") };
  },
};

