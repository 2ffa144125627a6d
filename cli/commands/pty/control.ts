// `corral pty resize`, `close` and `list`: the small session controls.
import type { CorralContext } from "../../shared/context.ts";
import type { CloseFlags, ListFlags, ResizeFlags } from "./flags.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { chosenSocket, replyBody, reportFailure, sessionOnly, withAgent } from "../../shared/agent-reach.ts";
import { commandLine } from "../../shared/command-line.ts";
import { wantsRemote } from "../../shared/socket-flag.ts";
import { lostNotes } from "../jobs/orphans-note.ts";
import { errorLine } from "../../shared/error-line.ts";
import { describeExit } from "../../../lib/core/exit-words.ts";

/** Resizes a session (values clamped to 1..1000); the size as COLS ROWS or --cols/--rows; --json: {session}. */
export async function ptyResizeAction(
  this: CorralContext,
  flags: ResizeFlags,
  session: string,
  cols: number | undefined,
  rows: number | undefined,
): Promise<void> {
  let size: { cols: number; rows: number };
  try {
    // Both already clamped to 1..1000 by the flag parser (DESIGN.md 4.4).
    size = { cols: oneSpelling("COLS", cols, "--cols", flags.cols), rows: oneSpelling("ROWS", rows, "--rows", flags.rows) };
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  await withAgent(this, flags, async (client) => {
    const resized = replyBody(await client.call({ op: "resize", session, ...size }));
    if (flags.json) this.process.stdout.write(`${JSON.stringify(resized)}\n`);
  }, sessionOnly(this, session));
}

// One dimension, given once: as the positional or as the flag, never both.
function oneSpelling(positional: string, fromPositional: number | undefined, flag: string, fromFlag: number | undefined): number {
  if (fromPositional !== undefined && fromFlag !== undefined) {
    throw new UsageError(`pty resize: ${positional} and ${flag} both given; give the size once: pty resize ID COLS ROWS, or pty resize ID --cols C --rows R`);
  }
  const value = fromPositional ?? fromFlag;
  if (value === undefined) {
    throw new UsageError(`pty resize: ${positional} missing; give both: pty resize ID COLS ROWS, or pty resize ID --cols C --rows R`);
  }
  return value;
}

/** Closes a session; prints how it ended. */
export async function ptyCloseAction(this: CorralContext, flags: CloseFlags, session: string): Promise<void> {
  const graceMs = flags.grace;
  await withAgent(this, flags, async (client) => {
    const closed = replyBody(
      await client.call({ op: "close", session, ...(graceMs !== undefined ? { graceMs } : {}), force: flags.force }),
    );
    this.process.stdout.write(flags.json ? `${JSON.stringify(closed)}\n` : `${closed.session.id} ${describeExit(closed.session.exit)}\n`);
    // An end corral could not learn is a decision the user must hear about, with why (not only in the facts).
    const exit = closed.session.exit;
    if (exit !== null && exit.code === null && exit.signal === null && !exit.timedOut) {
      this.process.stderr.write(errorLine(`session ${closed.session.id}: ${describeExit(exit)}`));
    }
  }, sessionOnly(this, session));
}

/** Lists sessions; with no agent running there are none (and none is started). */
export async function ptyListAction(this: CorralContext, flags: ListFlags): Promise<void> {
  await withAgent(this, flags, async (client) => {
    const { sessions } = await client.call({ op: "list" });
    if (!wantsRemote(this, flags)) for (const note of lostNotes(chosenSocket(this, flags), "session")) this.process.stderr.write(errorLine(note));
    if (flags.json) {
      this.process.stdout.write(`${JSON.stringify({ sessions })}\n`);
      return;
    }
    const rows = sessions.map((s) => [
      s.id,
      s.name === null ? "-" : s.retired ? `[${s.name}]` : s.name,
      String(s.pid),
      `${s.size.cols}x${s.size.rows}`,
      s.alive ? "running" : describeExit(s.exit),
      formatAge(s.ageMs),
      commandLine(s.argv),
    ]);
    this.process.stdout.write(table([["ID", "NAME", "PID", "SIZE", "STATE", "AGE", "COMMAND"], ...rows]));
  }, {
    start: false,
    whenAbsent: () => {
      if (flags.json) this.process.stdout.write('{"sessions":[]}\n');
    },
  });
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")).join("\n") + "\n";
}

/** 42s, 5m, 3h, 2d: enough to tell sessions apart. */
function formatAge(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}
