// Byte sizes as people type them: binary units for k/M/G (what `head -c`
// and most tools mean), decimal only when spelled KB/MB/GB.

const SIZE_UNITS: Record<string, number> = {
  "": 1,
  B: 1,
  k: 1024,
  K: 1024,
  KiB: 1024,
  M: 1024 ** 2,
  MiB: 1024 ** 2,
  G: 1024 ** 3,
  GiB: 1024 ** 3,
  KB: 1000,
  MB: 1000 ** 2,
  GB: 1000 ** 3,
};

/**
 * The most bytes of a stream's head or tail kept in memory (`--max-bytes`,
 * `--head-bytes`, the config keys of those names): 1 GiB. One limit for
 * every door and every backend, checked where the value enters; the
 * guardian's --head-bytes/--tail-bytes take the same at most (native/main.c).
 */
export const MAX_KEPT_BYTES = 1024 ** 3;

/** Thrown for a value that is not a size; the message says what would be. */
export class SizeError extends Error {
  override readonly name = "SizeError";
}

/** Parses `4096`, `64k`, `1MiB`, `10M`, `1GB` into a whole number of bytes. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$/.exec(text);
  const unit = match?.[2] ?? "";
  const scale = SIZE_UNITS[unit];
  if (!match || scale === undefined) {
    throw new SizeError(
      `"${text}" is not a size; use bytes or a number with k/KiB, M/MiB, G/GiB (1024) or KB/MB/GB (1000), e.g. 64k, 1MiB`,
    );
  }
  const bytes = Number(match[1]) * scale;
  if (!Number.isSafeInteger(Math.floor(bytes))) throw new SizeError(`"${text}" is too large a size`);
  return Math.floor(bytes);
}

/** Null when `bytes` may be kept in memory; else the one line saying the limit (`what` names the flag or key). */
export function keptBytesProblem(what: string, bytes: number, text: string): string | null {
  if (bytes <= MAX_KEPT_BYTES) return null;
  return `${what} is at most 1GiB (the bytes kept in memory per stream; use --spill FILE to keep everything), not "${text.slice(0, 40)}"`;
}

/** The shortest exact binary spelling of a size, for printing config back. */
export function formatSize(bytes: number): string {
  for (const [unit, scale] of [["GiB", 1024 ** 3], ["MiB", 1024 ** 2], ["KiB", 1024]] as const) {
    if (bytes >= scale && bytes % scale === 0) return `${bytes / scale}${unit}`;
  }
  return String(bytes);
}
