// Typed readers over YAML nodes: each returns the value or throws a
// ConfigError naming the file, the line and the key. Kept apart from the
// key table (from-yaml.ts) so that table reads like the documentation.
import { isMap, isScalar, isSeq, type LineCounter, type Node, type Pair } from "yaml";
import { DurationError, formatDuration, parseDuration } from "../core/duration.ts";
import { keptBytesProblem, parseSize, SizeError } from "../core/size.ts";
import { ConfigError } from "./config-error.ts";

/** What every reader needs to point at a line of the file. */
export interface YamlSource {
  readonly file: string;
  readonly lines: LineCounter;
}

/** One key of a mapping, with the nodes needed to report on it. */
export interface YamlEntry {
  readonly key: string;
  readonly path: string;
  readonly keyNode: Node;
  readonly value: Node | null;
}

/** 1-based line where a node starts, when the parser recorded one. */
export function lineOf(src: YamlSource, node: Node | null | undefined): number | undefined {
  const start = node?.range?.[0];
  return start === undefined ? undefined : src.lines.linePos(start).line;
}

function fail(src: YamlSource, entry: YamlEntry, problem: string): never {
  throw new ConfigError(src.file, lineOf(src, entry.value ?? entry.keyNode), entry.path, problem);
}

function shown(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);
}

/** The scalar under a key as text; a missing value, a list or a map is an error. */
function scalarText(src: YamlSource, entry: YamlEntry, want: string): string {
  const node = entry.value;
  if (node === null || (isScalar(node) && node.value === null)) fail(src, entry, `has no value; use ${want}`);
  if (!isScalar(node)) fail(src, entry, `expected ${want}, got a ${isSeq(node) ? "list" : isMap(node) ? "mapping" : "reference"}`);
  return String(node.value);
}

/**
 * The entries of a mapping, checking every key against `allowed` so a typo
 * is reported instead of silently ignored.
 */
export function mapEntries(
  src: YamlSource,
  node: Node | null,
  prefix: string,
  allowed: readonly string[],
): YamlEntry[] {
  const where = prefix === "" ? "the file" : prefix;
  if (node === null || (isScalar(node) && node.value === null)) return [];
  if (!isMap(node)) {
    throw new ConfigError(src.file, lineOf(src, node), prefix === "" ? undefined : prefix,
      `${where} must be a mapping of keys (${allowed.join(", ")})`);
  }
  return (node.items as Pair<unknown, unknown>[]).map((pair) => {
    const keyNode = pair.key as Node;
    const key = isScalar(keyNode) ? String(keyNode.value) : "?";
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (!allowed.includes(key)) {
      throw new ConfigError(src.file, lineOf(src, keyNode), path, `unknown key; use one of ${allowed.join(", ")}`);
    }
    return { key, path, keyNode, value: (pair.value ?? null) as Node | null };
  });
}

/** A duration (`250ms`, `10s`, `2m`; a bare number is seconds) in ms. */
export function readDuration(src: YamlSource, entry: YamlEntry, minMs = 0): number {
  const text = scalarText(src, entry, "a duration such as 250ms, 10s or 2m");
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    if (error instanceof DurationError) fail(src, entry, error.message.replace(`"${text}"`, shown(text)));
    throw error;
  }
  if (ms < minMs) fail(src, entry, `${shown(text)} is too short; use at least ${minMs} ms`);
  return ms;
}

/**
 * A bound that can be lifted: a duration within [minMs, maxMs], or the word
 * `off` (no bound), as `heartbeat: off` turns its timer off.
 */
export function readDurationOrOff(src: YamlSource, entry: YamlEntry, minMs: number, maxMs: number): number | "off" {
  const range = `${formatDuration(minMs)} to ${formatDuration(maxMs)}`;
  const text = scalarText(src, entry, `a duration from ${range}, or off`);
  if (text === "off") return "off";
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    if (!(error instanceof DurationError)) throw error;
    fail(src, entry, `${shown(text)} is not a duration; use off (no bound) or a duration from ${range} such as 30s, 10m or 2h`);
  }
  if (ms < minMs || ms > maxMs) fail(src, entry, `${shown(text)} is out of range; use off (no bound) or a duration from ${range}`);
  return ms;
}

/** A size (`4096`, `64k`, `1MiB`, `10MB`) in bytes. */
export function readSize(src: YamlSource, entry: YamlEntry, kept = false): number {
  const text = scalarText(src, entry, "a size such as 64k or 1MiB");
  try {
    const bytes = parseSize(text);
    const problem = kept ? keptBytesProblem(entry.key, bytes, text) : null;
    if (problem !== null) fail(src, entry, problem);
    return bytes;
  } catch (error) {
    if (error instanceof SizeError) fail(src, entry, error.message.replace(`"${text}"`, shown(text)));
    throw error;
  }
}

/** A whole number within [min, max]. */
export function readInteger(src: YamlSource, entry: YamlEntry, min: number, max: number): number {
  const want = `a whole number from ${min} to ${max}`;
  const text = scalarText(src, entry, want);
  const value = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || value < min || value > max) fail(src, entry, `${shown(text)} is not ${want}`);
  return value;
}

/** One of a fixed set of words. */
export function readChoice<T extends string>(src: YamlSource, entry: YamlEntry, choices: readonly T[]): T {
  const want = `one of ${choices.join(", ")}`;
  const text = scalarText(src, entry, want);
  if (!(choices as readonly string[]).includes(text)) fail(src, entry, `${shown(text)} is not valid; use ${want}`);
  return text as T;
}

/** A single word (no blanks), such as a TERM value. */
export function readWord(src: YamlSource, entry: YamlEntry): string {
  const want = "a non-empty word without blanks (e.g. xterm-256color)";
  const text = scalarText(src, entry, want);
  if (!/^\S+$/.test(text)) fail(src, entry, `${shown(text)} is not ${want}`);
  return text;
}

/**
 * A list of environment variable names or `*` globs (`*TOKEN*`), as the
 * scrubber matches them (lib/env/name-pattern.ts: `*` is the only wildcard).
 * Only names are ever written here, never values, so echoing them is safe.
 */
export function readNameList(src: YamlSource, entry: YamlEntry): string[] {
  const want = "a list of variable names or * globs such as [\"*TOKEN*\", AWS_*, GITHUB_TOKEN]";
  const node = entry.value;
  if (node === null || (isScalar(node) && node.value === null)) return [];
  if (!isSeq(node)) fail(src, entry, `expected ${want}`);
  return (node.items as Node[]).map((item, index) => {
    const itemEntry: YamlEntry = { ...entry, path: `${entry.path}[${index}]`, value: item };
    const text = scalarText(src, itemEntry, want);
    if (!/^[A-Za-z0-9_*.-]+$/.test(text)) fail(src, itemEntry, `${shown(text)} is not valid; use ${want}`);
    return text;
  });
}
