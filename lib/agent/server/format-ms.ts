// Durations in messages, as a person would type them back (`5s`, `250ms`).

/** 5000 -> "5s", 1500 -> "1.5s", 250 -> "250ms". */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(3))}s` : `${ms}ms`;
}
