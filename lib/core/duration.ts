// Durations as people type them on a command line or in the config file.
// One parser for every flag, config key and environment variable that takes
// a duration, so `--timeout 1h30m` and `grace: 1d` mean the same thing.

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The longest duration a timer can hold (setTimeout's 32-bit limit), about 24.8 days. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** Thrown for a value that is not a duration; the message says what would be. */
export class DurationError extends Error {
  override readonly name = "DurationError";
}

// One part of a compound: a number and a unit. Units must come from the
// largest to the smallest, each once (as Go's time.ParseDuration reads them,
// and as GNU timeout's single-unit `1d` extends).
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;
const ORDER = ["d", "h", "m", "s", "ms"];

/**
 * Parses `250ms`, `10s`, `1.5s`, `2m`, `1h`, `1d` and compounds such as
 * `1h30m`, `2m30s`, `1d12h` into milliseconds. A bare number means seconds,
 * as for timeout(1).
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  const bad = () =>
    new DurationError(
      `"${text}" is not a duration; use a number with ms, s, m, h or d, alone or combined largest first (e.g. 250ms, 10s, 2m, 1h30m, 1d)`,
    );
  let value: number;
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) {
    value = Number(trimmed) * 1000;
  } else {
    value = 0;
    let at = 0;
    let lastRank = -1;
    while (at < trimmed.length) {
      PART.lastIndex = at;
      const match = PART.exec(trimmed);
      if (!match) throw bad();
      const rank = ORDER.indexOf(match[2] as string);
      if (rank <= lastRank) throw bad();
      lastRank = rank;
      value += Number(match[1]) * (DURATION_UNITS[match[2] as string] as number);
      at = PART.lastIndex;
    }
    if (lastRank < 0) throw bad();
  }
  if (!Number.isFinite(value) || value > MAX_DURATION_MS) {
    throw new DurationError(`"${text}" is too long a duration; the most is about 24 days (24d20h)`);
  }
  return Math.round(value);
}

/** The shortest exact spelling of a duration, for printing config back (`90m` is `1h30m`). */
export function formatDuration(ms: number): string {
  if (ms <= 0) return ms === 0 ? "0s" : `${ms}ms`;
  let left = ms;
  let out = "";
  for (const unit of ORDER) {
    const scale = DURATION_UNITS[unit] as number;
    const n = Math.floor(left / scale);
    if (n > 0) {
      out += `${n}${unit}`;
      left -= n * scale;
    }
  }
  return out;
}
