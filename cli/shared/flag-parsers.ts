// The flag value parsers, one copy each: durations, byte sizes, whole numbers,
// line counts, byte offsets and `--env NAME=VALUE`. Each checker throws a
// UsageError (exit 2) whose one line names the flag and what would be right.
// The `parse*` factories plug them into stricli's `parse`, so an action
// receives numbers; cli/app.ts prints such an error as the checker's own line
// (never the input: an `--env` value may be a secret).
import { UsageError } from "./exit-status.ts";
import { DurationError, parseDuration } from "../../lib/core/duration.ts";
import { SizeError, parseSize } from "../../lib/core/size.ts";
import { type EnvAssignment, EnvAssignmentError, parseEnvAssignment } from "../../lib/env/assignment.ts";

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
export function sizeFlag(flag: string, text: string | undefined, min = 0): number | undefined {
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

/** A line count flag: a whole number >= 0; undefined stays undefined. */
export function lineCountFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\s*\d{1,15}\s*$/.test(text)) {
    throw new UsageError(`${flag} must be a number of lines (a whole number >= 0), not "${text.slice(0, 40)}"`);
  }
  return Number(text);
}

/** A byte offset into an output stream: a whole number >= 0. */
export function offsetFlag(flag: string, text: string): number {
  if (!/^\d{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${flag} must be a byte offset (a whole number >= 0), not "${text.slice(0, 40)}"`);
  }
  return Number(text);
}

/** `--env NAME=VALUE`; the message never holds what was typed. */
export function envFlag(text: string): EnvAssignment {
  try {
    return parseEnvAssignment(text);
  } catch (error) {
    if (error instanceof EnvAssignmentError) throw new UsageError(error.message);
    throw error;
  }
}

/** stricli `parse` for an integer flag within [min, max]. */
export const parseIntFlag = (flag: string, min: number, max: number) => (text: string): number =>
  intFlag(flag, text, min, max) as number;

/** stricli `parse` for a duration flag: milliseconds. */
export const parseDurationFlag = (flag: string) => (text: string): number => durationFlag(flag, text) as number;

/** stricli `parse` for a byte-size flag: bytes, at least `min`. */
export const parseSizeFlag = (flag: string, min = 0) => (text: string): number => sizeFlag(flag, text, min) as number;

/** stricli `parse` for a line count flag. */
export const parseLineCountFlag = (flag: string) => (text: string): number => lineCountFlag(flag, text) as number;

/** stricli `parse` for a byte offset flag. */
export const parseOffsetFlag = (flag: string) => (text: string): number => offsetFlag(flag, text);

/**
 * stricli `parse` for a period that may be switched off: a duration in ms, or
 * 0 for `off` (0 already means "never" for a period).
 */
export const parseDurationOrOffFlag = (flag: string) => (text: string): number => {
  if (text.trim() === "off") return 0;
  try {
    return parseDuration(text);
  } catch (error) {
    if (error instanceof DurationError) throw new UsageError(`${flag}: ${error.message}, or off`);
    throw error;
  }
};

/**
 * stricli `parse` for a terminal dimension: a whole number, clamped to 1..1000
 * rather than refused (DESIGN.md 4.4); only a non-number is an error.
 */
export const parseClampedDimensionFlag = (flag: string) => (text: string): number => {
  if (!/^\s*\d{1,15}\s*$/.test(text)) {
    throw new UsageError(`${flag} must be a whole number (sizes are clamped to 1-1000), not "${text.slice(0, 40)}"`);
  }
  // 0 is no size at all (a mistake, not a wish for the smallest): refused as pty open refuses it.
  if (Number(text) === 0) throw new UsageError(`${flag} must be at least 1 (sizes are 1-1000), not 0`);
  return Math.min(1000, Number(text));
};

/** stricli `parse` for `--env NAME=VALUE`. */
export const parseEnvFlag = (text: string): EnvAssignment => envFlag(text);
