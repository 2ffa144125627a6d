// The agent's table of sessions: ids, names, lookup by either, and the
// exited sessions kept (bounded) so their exit facts stay readable.
import { AgentError, type SessionInfo } from "./protocol.ts";
import type { AgentSession } from "./session-port.ts";

/** Exited sessions kept for `list`/`screen`; the oldest go first past this. */
const MAX_EXITED_KEPT = 64;

export interface SessionEntry {
  readonly id: string;
  readonly name: string | null;
  readonly session: AgentSession;
  /** Lines the session's screen keeps above the visible grid (counted in the screen budget). */
  readonly scrollback: number;
}

/** Sessions by id ("1", "2", ...) and by name (never all digits). */
export class SessionRegistry {
  #byId = new Map<string, SessionEntry>();
  #nextId = 1;

  add(session: AgentSession, name: string | null, scrollback = 0): SessionEntry {
    if (name !== null) this.#checkNameFree(name);
    const entry: SessionEntry = { id: String(this.#nextId++), name, session, scrollback };
    this.#byId.set(entry.id, entry);
    this.#trimExited();
    return entry;
  }

  /** Throws AgentError name_taken while a session with that name exists. */
  #checkNameFree(name: string): void {
    for (const entry of this.#byId.values()) {
      if (entry.name === name) {
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
    for (const entry of this.#byId.values()) if (entry.name === idOrName) return entry;
    throw new AgentError(
      "unknown_session",
      `no session "${idOrName.slice(0, 80)}"; see corral pty list for the ids and names`,
    );
  }

  remove(id: string): void {
    this.#byId.delete(id);
  }

  all(): SessionEntry[] {
    return [...this.#byId.values()];
  }

  /** Terminal cells every held screen takes, cols x (rows + scrollback): the screen budget's measure. */
  screenCells(except?: SessionEntry): number {
    let cells = 0;
    for (const entry of this.#byId.values()) {
      if (entry === except) continue;
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
      session: entry.id,
      name: entry.name,
      pid: session.pid,
      argv: session.argv,
      cols: size.cols,
      rows: size.rows,
      alive: session.alive(),
      exit: session.exitFacts(),
      startedAt: session.startedAt,
      ageMs: now - session.startedAt,
    };
  }

  #trimExited(): void {
    const exited = this.all().filter((e) => !e.session.alive());
    for (const entry of exited.slice(0, Math.max(0, exited.length - MAX_EXITED_KEPT))) {
      this.#byId.delete(entry.id);
      entry.session.dispose?.();
    }
  }
}
