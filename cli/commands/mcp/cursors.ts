// Cursors of waits that returned done:false because the call reached the
// wait cap: the client passes one back to the same tool to go on waiting
// from where the last call stopped, so a long build is a few calls and not
// forty polls. Held in this server's memory, bounded; a cursor from another
// server (or one evicted) is refused with a message saying what to do.
import { ToolError } from "./tool.ts";

const MAX_CURSORS = 1000;

/** Pending waits by cursor. */
export class CursorStore {
  readonly #pending = new Map<string, { readonly tool: string; readonly state: unknown }>();
  #next = 1;

  /** A new cursor for `tool` holding what its next call needs. */
  issue(tool: string, state: unknown): string {
    const cursor = `${tool}:${this.#next++}`;
    this.#pending.set(cursor, { tool, state });
    if (this.#pending.size > MAX_CURSORS) this.#pending.delete(this.#pending.keys().next().value as string);
    return cursor;
  }

  /** The state behind `cursor`; it is used up (a resumed wait issues a new one). */
  take<T>(tool: string, cursor: string): T {
    const entry = this.#pending.get(cursor);
    if (entry === undefined || entry.tool !== tool) {
      throw new ToolError("unknown_cursor", `cursor ${JSON.stringify(cursor.slice(0, 40))} is not a pending ${tool} wait of this server (used already, or from another server); start the wait again without a cursor`);
    }
    this.#pending.delete(cursor);
    return entry.state as T;
  }
}

/** The longest this call may wait: what is left of the caller's own timeout, never past the cap. */
export function waitSlice(deadline: number | null, capMs: number): { ms: number; capped: boolean } {
  const left = deadline === null ? Infinity : Math.max(0, deadline - Date.now());
  return left > capMs ? { ms: capMs, capped: true } : { ms: left, capped: false };
}

/** Resolves after `ms`, or at once when `signal` aborts; the timer never keeps the process alive. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
