// Sizes and bounds every session shares (DESIGN.md 4.4), in one place so the
// CLI, the agent and the library clamp the same way.

// The defaults themselves are lib/core's (defaults.ts), re-exported for the session's code.
import { DEFAULT_SCROLLBACK, MAX_SCROLLBACK } from "../core/defaults.ts";

export { DEFAULT_COLS, DEFAULT_ROWS, DEFAULT_SCROLLBACK, DEFAULT_TERM, MAX_SCROLLBACK } from "../core/defaults.ts";

/** A terminal dimension clamped to 1..1000; non-numbers become the default. */
export function clampDimension(value: number | undefined, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(1000, Math.max(1, Math.trunc(value)));
}

/** Scrollback lines clamped to 0..MAX_SCROLLBACK; the default when not a number. */
export function clampScrollback(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return DEFAULT_SCROLLBACK;
  return Math.min(MAX_SCROLLBACK, Math.max(0, Math.trunc(value)));
}
