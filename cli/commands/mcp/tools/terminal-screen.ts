// terminal_screen: what a person would see, sized for a model. The
// viewport (default), the last N lines (scrollback included), or a range
// of the kept history; with `since` (the snapshot id of an earlier answer)
// only the rows that changed since then. Snapshots are remembered by this
// server (bounded); an unknown id is refused, saying what to do.
import { agentCall } from "../agent-call.ts";
import { lastLinesWithin } from "../model-text.ts";
import { type Tool, ToolError } from "../tool.ts";
import { bool, integer, nullable, object, str, strings } from "./schema-parts.ts";

const MAX_SNAPSHOTS = 200;
/** Lines of history a range or last-N read asks the agent for at most. */
const MAX_HISTORY = 100_000;

interface Kept {
  readonly session: string;
  readonly lines: readonly string[];
  readonly first: number;
}
const snapshots = new Map<string, Kept>();
let nextSnapshot = 1;

function keep(kept: Kept): string {
  const id = `snap-${nextSnapshot++}`;
  snapshots.set(id, kept);
  if (snapshots.size > MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value as string);
  return id;
}

export const terminalScreenTool: Tool = {
  name: "terminal_screen",
  title: "Read a terminal session's screen",
  description: [
    "The session's screen as text: the viewport (default), the last `lines` lines including scrollback, or the",
    "history lines [from, to) (0 is the oldest line kept). With `since` (a snapshot id from an earlier answer)",
    "only the lines that changed are returned. Also: cursor, size, whether the program is alive and whether it",
    "waits for input.",
  ].join(" "),
  readOnly: true,
  starts: false,
  inputSchema: object({
    session: str("Session id or name"),
    lines: integer("The last N lines, scrollback included", 1),
    from: integer("First history line of a range (0: oldest kept)"),
    to: integer("End of the range (exclusive; default: the end)"),
    since: str("A snapshot id from an earlier terminal_screen answer: return only the lines that changed"),
  }, ["session"]),
  outputSchema: object({
    snapshot: str("this answer's id, for a later `since`"),
    session: str("session id"),
    first: integer("history line number of the first line returned (the viewport's first row is line `historyLines - rows`)"),
    historyLines: integer("lines in the history read (scrollback plus viewport)"),
    lines: strings("the lines, top to bottom (with `since`: every line, of which `changed` lists the new)"),
    changed: nullable({ type: "array", items: object({ line: integer("history line number"), text: str("its text now") }, ["line", "text"]), description: "with `since`: only the lines that differ (null without since)" }),
    droppedLines: integer("lines left out at the top to fit the budget"),
    cursor: object({ row: integer("row"), col: integer("column"), visible: bool("shown") }, ["row", "col", "visible"]),
    size: object({ cols: integer("columns"), rows: integer("rows") }, ["cols", "rows"]),
    alive: bool("the program still runs"),
    awaitingInput: nullable(bool("the foreground program waits for input (null: unknown)")),
    title: str("the window title"),
    alternateScreen: bool("a full-screen program's own screen is shown"),
    position: integer("output position the screen reflects"),
  }, ["snapshot", "session", "first", "lines", "changed", "cursor", "size", "alive", "position"]),
  async answer(input, call) {
    const session = String(input.session);
    const wantsHistory = typeof input.lines === "number" || typeof input.from === "number" || typeof input.to === "number";
    const scrollback = typeof input.lines === "number" ? Math.min(MAX_HISTORY, input.lines) : wantsHistory ? MAX_HISTORY : 0;
    const { screen } = await agentCall(call, { op: "screen", session, ...(scrollback > 0 ? { scrollback } : {}) });
    const above = screen.scrollback ?? [];
    const all = [...above, ...screen.lines];
    // Numbered from the oldest line the read returned: the agent keeps at most its scrollback.
    let first = 0;
    let chosen: string[];
    if (typeof input.lines === "number") {
      first = Math.max(0, all.length - input.lines);
      chosen = all.slice(first);
    } else if (typeof input.from === "number" || typeof input.to === "number") {
      first = typeof input.from === "number" ? input.from : 0;
      const to = typeof input.to === "number" ? input.to : all.length;
      if (first > all.length || to < first) throw new ToolError("bad_request", `range [${first}, ${to}) is outside the ${all.length} lines kept`);
      chosen = all.slice(first, to);
    } else {
      first = above.length;
      chosen = [...screen.lines];
      // Blank rows below the last written one say nothing; `size.rows` still says how many there are.
      while (chosen.length > 0 && chosen[chosen.length - 1] === "" && chosen.length > screen.cursor.row + 1) chosen.pop();
    }
    let changed: { line: number; text: string }[] | null = null;
    if (typeof input.since === "string") {
      const before = snapshots.get(input.since);
      if (before === undefined || before.session !== session) {
        throw new ToolError("unknown_snapshot", `snapshot ${JSON.stringify(input.since.slice(0, 40))} is not one of this server's for session ${session}; read without since`);
      }
      changed = [];
      for (let i = 0; i < chosen.length; i++) {
        const line = first + i;
        const old = before.lines[line - before.first];
        if (old !== chosen[i]) changed.push({ line, text: chosen[i] as string });
      }
    }
    const snapshot = keep({ session, lines: chosen, first });
    const shown = lastLinesWithin(chosen, call.options.budget, call.options.maxLineChars);
    const awaitingInput = screen.foreground?.waitingForInput ?? null;
    const structured = {
      snapshot,
      session: screen.id,
      first: first + shown.dropped,
      historyLines: all.length,
      lines: shown.lines,
      changed,
      droppedLines: shown.dropped,
      cursor: { ...screen.cursor },
      size: { ...screen.size },
      alive: screen.alive,
      awaitingInput,
      title: screen.title,
      alternateScreen: screen.alternateScreen,
      position: screen.position,
    };
    const state = `${screen.alive ? "running" : "exited"}${awaitingInput === true ? ", waits for input" : ""}; cursor ${screen.cursor.row},${screen.cursor.col}; snapshot ${snapshot}`;
    const body = changed === null
      ? shown.lines.join("\n")
      : changed.length === 0 ? "(nothing changed)" : changed.map((c) => `${c.line}: ${c.text}`).join("\n");
    const dropped = shown.dropped > 0 ? `\n(${shown.dropped} lines above left out to fit the budget)` : "";
    return { structured, text: `session ${screen.id}: ${state}${dropped}\n---\n${body}` };
  },
};
