// Checking the numbers and durations typed to the pty commands: one line
// naming the flag and what would be right, exit 2 (UsageError).
import { UsageError } from "./exit-status.ts";
import { DurationError, parseDuration } from "../lib/core/duration.ts";
import { SizeError, parseSize } from "../lib/core/size.ts";

/** An integer flag within [min, max]; undefined stays undefined. */
export function intFlag(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.trim());
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${text.slice(0, 40)}"`);
  }
  return value;
}

/** A duration flag in milliseconds (250ms, 5s, 2m); undefined stays undefined. */
export function durationFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    return parseDuration(text);
  } catch (error) {
    if (error instanceof DurationError) throw new UsageError(`${flag}: ${error.message}`);
    throw error;
  }
}

/** A byte-size flag (64k, 10M) of at least `min` bytes; undefined stays undefined. */
export function sizeFlag(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  let bytes: number;
  try {
    bytes = parseSize(text);
  } catch (error) {
    if (error instanceof SizeError) throw new UsageError(`${flag}: ${error.message}`);
    throw error;
  }
  if (bytes < min) throw new UsageError(`${flag} must be at least ${min} bytes, not "${text.slice(0, 40)}"`);
  return bytes;
}
