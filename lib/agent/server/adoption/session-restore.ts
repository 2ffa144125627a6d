// Ended terminal sessions a new agent takes in: those whose end a previous
// agent wrote down (session-ends.ts), and those that ended while no agent
// held them (their guardian gone before anyone re-adopted it: killed with
// its agent, or ended by itself). Either comes back under its id and name,
// ended, so `pty list`, `pty screen` and `pty close` say what happened to it:
// the program's true status when one was known, else "end unknown" with the
// reason. Never forgotten, never given an invented status.
import type { ExitFacts } from "../../../core/exit-facts.ts";
import type { Receipt } from "../../../core/receipt.ts";
import type { GuardianRecord } from "../../../supervise/guardian-records.ts";
import { removeRecord, writeRecord } from "../../../supervise/guardian-records.ts";
import type { SupervisedTree, SupervisedTreeEvents } from "../../../supervise/handle.ts";
import { TreeEvents } from "../../../supervise/tree-events.ts";
import { describeOrphanedTree, terminateOrphanedTree } from "../../../supervise/orphaned-tree.ts";
import type { AgentContext } from "../agent-context.ts";
import { adoptPtySession } from "../pty-sessions.ts";
import { type SessionEndRecord, writeSessionEnd } from "../session-ends.ts";

/** The grace what is left of an unowned session's tree gets before SIGKILL. */
const LEFTOVER_GRACE_MS = 1000;

/** The tree of a session that has ended: it only tells its end. */
class EndedSessionTree implements SupervisedTree {
  readonly backend = "guardian" as const;
  readonly #events = new TreeEvents();

  constructor(readonly pid: number, exit: ExitFacts) {
    this.#events.exit({
      code: exit.code, signal: exit.signal, outputComplete: exit.outputComplete,
      ...(exit.supervisorLost !== undefined ? { supervisorLost: exit.supervisorLost } : {}),
      ...(exit.unknownWhy !== undefined ? { unknownWhy: exit.unknownWhy } : {}),
    });
  }

  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.#events.on(event, listener);
  }

  write(): void {}
  resize(): void {}
  signal(): Promise<void> {
    return Promise.resolve();
  }
  terminate(): Promise<Receipt> {
    return Promise.resolve({ status: "confirmed", forced: false, reason: null });
  }
  pause(): void {}
  resume(): void {}
  dispose(): void {}
}

/** The visible rows as bytes that paint them again (text only), the cursor put back. */
function repaint(record: SessionEndRecord): Uint8Array {
  const lines = record.lines ?? [];
  let last = lines.length;
  while (last > 0 && lines[last - 1]!.trimEnd() === "") last--;
  let text = lines.slice(0, last).map((line) => line.trimEnd()).join("\r\n");
  if (record.cursor !== undefined) text += `\x1b[${record.cursor.row + 1};${record.cursor.col + 1}H`;
  return new TextEncoder().encode(text);
}

/** Lists one ended session under its id and name; its end record stays until it is reaped. */
export async function restoreEndedSession(ctx: AgentContext, record: SessionEndRecord): Promise<void> {
  if (record.exit === null) {
    await restoreEndedSession(ctx, await endedWithItsAgent(ctx, record));
    return;
  }
  const backlog = repaint(record);
  const session = await adoptPtySession(new EndedSessionTree(record.pid, record.exit), {
    argv: record.argv,
    cols: record.cols,
    rows: record.rows,
    scrollback: 0,
    term: record.term,
    createdAt: record.createdAt,
    backlog,
    position: Math.max(record.position, backlog.length),
    ended: record.exit,
  });
  await new Promise<void>((resolve) => session.onExit(() => resolve()));
  const entry = ctx.registry.adopt(session, record.id, record.name, 0);
  entry.retired = record.retired;
  ctx.log(`session ${record.id} restored as it ended (its end kept by a previous agent)`);
}

/**
 * A session whose guardian is gone while no agent held it: what can still
 * be identified of its tree is ended here, and it is listed as ended, its
 * end unknown with the reason. Its guardian's record goes, unless something
 * of the tree could not be confirmed gone (then `reap` keeps looking).
 */
export async function endUnownedSession(ctx: AgentContext, record: GuardianRecord, why: string): Promise<string> {
  const facts = record.session!;
  const tree = record.child === null ? null : await terminateOrphanedTree(record.child, LEFTOVER_GRACE_MS);
  const cleanup = tree === null ? "its record names no child" : describeOrphanedTree(tree);
  const exit: ExitFacts = {
    code: null,
    signal: null,
    timedOut: false,
    forced: tree?.forced ?? false,
    durationMs: Math.max(0, Date.now() - facts.createdAt),
    outputComplete: false,
    supervisorLost: { pid: record.guardian.pid, cause: `ended while no agent held it (${why})`, cleanup },
  };
  const ended: SessionEndRecord = {
    id: facts.id, name: facts.name, retired: false, argv: record.argv, pid: record.child?.pid ?? 0,
    cols: 80, rows: 24, scrollback: 0, term: facts.term, createdAt: facts.createdAt, position: 0, exit,
  };
  writeSessionEnd(ctx.stateDir, ended);
  await restoreEndedSession(ctx, ended);
  if (tree !== null && (tree.left.length > 0 || tree.procUnreadable)) {
    writeRecord(ctx.stateDir, { ...record, lost: `${why}; ${cleanup}` });
  } else {
    removeRecord(ctx.stateDir, record.guardian.pid);
  }
  ctx.log(`session ${facts.id} ended while no agent held it: ${why}; ${cleanup}`);
  return facts.id;
}

/**
 * A session whose terminal was its agent's own (no guardian) ended with that
 * agent: its status was never kept, so its end is unknown, with the reason;
 * what is left of its tree (a program that ignores the hangup) is ended.
 */
async function endedWithItsAgent(ctx: AgentContext, record: SessionEndRecord): Promise<SessionEndRecord> {
  const tree = record.child === undefined ? null : await terminateOrphanedTree(record.child, LEFTOVER_GRACE_MS);
  const cleanup = tree === null ? "its program could not be identified" : describeOrphanedTree(tree);
  const exit: ExitFacts = {
    code: null,
    signal: null,
    timedOut: false,
    forced: tree?.forced ?? false,
    durationMs: Math.max(0, Date.now() - record.createdAt),
    outputComplete: false,
    unknownWhy: `its agent (pid ${record.heldBy?.pid ?? "?"}) ended while it ran, and its terminal was that agent's own (no guardian), so its exit status was not kept; ${cleanup}`,
  };
  const ended: SessionEndRecord = { ...record, exit };
  writeSessionEnd(ctx.stateDir, ended);
  ctx.log(`session ${record.id} ended with its agent (pid ${record.heldBy?.pid ?? "?"}); ${cleanup}`);
  return ended;
}

/** Names of sessions restored ended whose name a later session holds are found by id only. */
export function retireShadowedNames(ctx: AgentContext): void {
  const entries = ctx.registry.all();
  for (const entry of entries) {
    if (entry.name === null || entry.retired || entry.session.alive()) continue;
    if (entries.some((other) => other !== entry && other.name === entry.name && Number(other.id) > Number(entry.id))) entry.retired = true;
  }
}
