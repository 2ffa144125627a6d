// The agent's table of sessions: ids, names, lookup by either, and the
// exited sessions kept (bounded) so their exit facts stay readable. A name
// belongs to a live session: opening a session with the name of an exited
// one retires the old one (readable by id until reaped) and moves the name,
// so a script that opens "py" can run twice in a row (DESIGN.md 4.8).
import { AgentError, type SessionInfo } from "../protocol/messages.ts";
import type { AgentSession } from "./session-port.ts";
import { removeSessionEnd } from "./session-ends.ts";

/** Exited sessions kept for `list`/`screen`; the oldest go first past this. */
const MAX_EXITED_KEPT = 64;

export interface SessionEntry {
  readonly id: string;
  readonly name: string | null;
  /** Its name went to a newer session: found by id only. */
  retired: boolean;
  readonly session: AgentSession;
  /** Lines the session's screen keeps above the visible grid (counted in the screen budget). */
  readonly scrollback: number;
}

/** Sessions by id ("1", "2", ...) and by name (never all digits). */
export class SessionRegistry {
  #byId = new Map<string, SessionEntry>();
  #nextId = 1;
  /** Where the sessions' ends are written (session-ends.ts): a session forgotten here is forgotten there. */
  #endsIn: string | undefined;

  keepEndsIn(stateDir: string): void {
    this.#endsIn = stateDir;
  }

  add(session: AgentSession, name: string | null, scrollback = 0): SessionEntry {
    if (name !== null) {
      this.#checkNameFree(name);
      for (const old of this.#byId.values()) if (old.name === name) old.retired = true;
    }
    const entry: SessionEntry = { id: String(this.#nextId++), name, retired: false, session, scrollback };
    this.#byId.set(entry.id, entry);
    this.#trimExited();
    return entry;
  }

  /**
   * Takes in a session a previous agent opened, under its old id and name
   * (issue 11); later sessions get ids above it.
   */
  adopt(session: AgentSession, id: string, name: string | null, scrollback = 0): SessionEntry {
    const entry: SessionEntry = { id, name, retired: false, session, scrollback };
    this.#byId.set(id, entry);
    const n = Number(id);
    if (Number.isSafeInteger(n) && n >= this.#nextId) this.#nextId = n + 1;
    return entry;
  }

  /** Throws AgentError name_taken while a running session has that name. */
  #checkNameFree(name: string): void {
    for (const entry of this.#byId.values()) {
      if (entry.name === name && !entry.retired && entry.session.alive()) {
        throw new AgentError("name_taken", `a session named "${name}" exists (id ${entry.id}); close it or choose another --name`);
      }
    }
  }

  /** Reserves nothing; lets `open` fail before spawning when the name is taken. */
  assertNameFree(name: string): void {
    this.#checkNameFree(name);
  }

  /** By id or name; throws AgentError unknown_session. */
  get(idOrName: string): SessionEntry {
    const byId = this.#byId.get(idOrName);
    if (byId) return byId;
    for (const entry of this.#byId.values()) if (entry.name === idOrName && !entry.retired) return entry;
    throw new AgentError(
      "unknown_session",
      `no session "${idOrName.slice(0, 80)}"; see corral pty list for the ids and names`,
    );
  }

  remove(id: string): void {
    this.#byId.delete(id);
    if (this.#endsIn !== undefined) removeSessionEnd(this.#endsIn, id);
  }

  all(): SessionEntry[] {
    return [...this.#byId.values()];
  }

  /**
   * Terminal cells the held screens take: what each holds now (its lines,
   * none while an idle screen's emulator is dropped), or, for a session that
   * cannot tell, cols x (rows + scrollback). The screen budget's measure.
   */
  screenCells(except?: SessionEntry): number {
    let cells = 0;
    for (const entry of this.#byId.values()) {
      if (entry === except) continue;
      const held = entry.session.cellsHeld?.();
      if (held !== undefined) {
        cells += held;
        continue;
      }
      const { cols, rows } = entry.session.size();
      cells += cols * (rows + entry.scrollback);
    }
    return cells;
  }

  /** Sessions whose program still runs: the ones that keep the agent up. */
  aliveCount(): number {
    let n = 0;
    for (const entry of this.#byId.values()) if (entry.session.alive()) n++;
    return n;
  }

  info(entry: SessionEntry, now: number = Date.now()): SessionInfo {
    const { session } = entry;
    const size = session.size();
    return {
      id: entry.id,
      name: entry.name,
      pid: session.pid,
      argv: session.argv,
      size: { cols: size.cols, rows: size.rows },
      position: session.position(),
      alive: session.alive(),
      exit: session.exitFacts(),
      retired: entry.retired,
      startedAt: session.startedAt,
      ageMs: now - session.startedAt,
      shell: session.shellHook?.()?.kind ?? null,
    };
  }

  #trimExited(): void {
    const exited = this.all().filter((e) => !e.session.alive());
    for (const entry of exited.slice(0, Math.max(0, exited.length - MAX_EXITED_KEPT))) {
      this.remove(entry.id);
      entry.session.dispose?.();
    }
  }
}
