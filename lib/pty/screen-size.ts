// Sizes and bounds every session shares (DESIGN.md 4.4), in one place so the
// CLI, the agent and the library clamp the same way.

/** Columns of a session opened without a size. */
export const DEFAULT_COLS = 80;
/** Rows of a session opened without a size. */
export const DEFAULT_ROWS = 24;
/** TERM for the program: the emulator is an xterm. */
export const DEFAULT_TERM = "xterm-256color";
/**
 * Lines a session keeps above the visible grid unless told otherwise: what
 * tmux keeps (history-limit 2000), so growing the terminal brings back lines
 * that scrolled off. Memory: README "Terminal fidelity".
 */
export const DEFAULT_SCROLLBACK = 2000;
/** Lines kept above the visible grid at most, whatever a caller asks for. */
export const MAX_SCROLLBACK = 10_000;

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
