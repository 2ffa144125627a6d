// Durations as people type them on a command line or in the config file.

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Thrown for a value that is not a duration; the message says what would be. */
export class DurationError extends Error {
  override readonly name = "DurationError";
}

/**
 * Parses `250ms`, `10s`, `1.5s`, `2m`, `1h` into milliseconds. A bare
 * number means seconds, as for timeout(1).
 */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) {
    throw new DurationError(`"${text}" is not a duration; use a number with ms, s, m or h (e.g. 250ms, 10s, 2m)`);
  }
  const value = Number(match[1]) * (DURATION_UNITS[match[2] ?? "s"] as number);
  if (!Number.isFinite(value) || value > 2 ** 31 - 1) {
    throw new DurationError(`"${text}" is too long a duration; the most is about 24 days`);
  }
  return Math.round(value);
}

/** The shortest exact spelling of a duration, for printing config back. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
