// The shapes a session hands out: the screen snapshot (DESIGN.md 4.4), the
// listing entry, and the one error class sessions throw. Plain data, so the
// agent can put them on the wire as they are.
import type { ExitFacts } from "../core/exit-facts.ts";
import type { SupervisorName } from "../supervise/handle.ts";
import type { ScreenGrid } from "./screen-grid.ts";
import type { StyleRun } from "./screen-styles.ts";

/**
 * The screen as a session reads it (DESIGN.md 4.4), the one shape from the
 * emulator to the wire: the agent's screen reply (ScreenView) is this plus
 * who the session is, its output position and its foreground process.
 */
export interface ScreenSnapshot extends ScreenGrid {
  /** The program is still running (when the screen was read). */
  readonly alive: boolean;
  /** How it ended, once it has. */
  readonly exit: ExitFacts | null;
  /** The hash differs from the previous read's (or from the `since` hash asked about). */
  readonly changed: boolean;
  /**
   * Present (true) on a session a new agent re-adopted when the guardian's raw
   * tail did not hold its whole output: the screen was rebuilt from part of
   * the history and may differ until the program redraws (issue 11).
   */
  readonly approximate?: boolean;
  /**
   * Present when the agent, short of its screen budget, dropped this many of
   * the session's oldest scrollback lines (least recently active sessions
   * first): `--scrollback` then shows fewer lines than were written.
   */
  readonly scrollbackTrimmed?: number;
  /** Per visible row, runs of cells drawn alike; only when asked for (`--styles`). */
  readonly styles?: readonly (readonly StyleRun[])[];
}

/** One line of `pty list`; reading it never consumes a pending change. */
export interface SessionInfo {
  readonly id: string;
  readonly name: string | null;
  readonly pid: number;
  readonly argv: readonly string[];
  readonly cols: number;
  readonly rows: number;
  readonly alive: boolean;
  readonly exit: ExitFacts | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly backend: SupervisorName;
  /** Bytes the program has written to the terminal so far. */
  readonly outputBytes: number;
  /** The output position: bytes the program has written, monotonic from 0 (DESIGN.md 4.8). */
  readonly position: number;
  /** The emulator is in memory; an idle session with little output is kept as its output and rebuilt on demand. */
  readonly hydrated: boolean;
}

/** Codes a session error carries; the agent sends them as `{code, message}`. */
export type PtySessionErrorCode = "bad_value" | "unknown_key" | "exited" | "closed";

/** A refused session operation (bad value, session gone); nothing was done. */
export class PtySessionError extends Error {
  override readonly name = "PtySessionError";
  constructor(readonly code: PtySessionErrorCode, message: string) {
    super(message);
  }
}
