// Line feeds in a byte range of a file: the lines of a stream's middle that
// another writer spilled or kept (the guardian's spill and capture), which
// this process never saw go by.
import { spawnSync } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { countLineFeeds } from "./line-feeds.ts";

/** What a range of a file holds, for line accounting. */
export interface RangeLines {
  readonly lineFeeds: number;
  /** The range's last byte, -1 when it is empty or could not be read. */
  readonly lastByte: number;
}

const READ_BYTES = 1024 * 1024;

/**
 * Counts line feeds in [from, to) of `path`. Synchronous on purpose: it runs
 * once, after the child exited, when nothing else is waiting on this process;
 * a short or unreadable file counts what could be read.
 */
export function rangeLineFeeds(path: string, from: number, to: number): RangeLines {
  if (to <= from) return { lineFeeds: 0, lastByte: -1 };
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return { lineFeeds: 0, lastByte: -1 };
  }
  const buffer = new Uint8Array(Math.min(READ_BYTES, to - from));
  let lineFeeds = 0;
  let lastByte = -1;
  try {
    let at = from;
    for (; at < to;) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, to - at), at);
      if (n <= 0) break;
      const got = buffer.subarray(0, n);
      lineFeeds += countLineFeeds(got);
      lastByte = got[n - 1] as number;
      at += n;
    }
    if (at < to) lastByte = -1; // the file ends early: its last byte is not the range's
  } catch {
    // what was counted stands
    lastByte = -1;
  } finally {
    closeSync(fd);
  }
  return { lineFeeds, lastByte };
}

/**
 * Line feeds in the whole file `path` when it is exactly `size` bytes long,
 * counted by `wc -l` (coreutils scans with vector instructions: a 1 GiB
 * spill in a small fraction of the CPU a JavaScript loop needs); null when
 * the size differs or wc is not there, so the caller counts its own way.
 */
export function fileLineFeeds(path: string, size: number): number | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    if (fstatSync(fd).size !== size) return null;
    const result = spawnSync("wc", ["-l"], { stdio: [fd, "pipe", "ignore"], encoding: "utf8" });
    const count = /^\s*(\d+)\s*$/.exec(result.stdout ?? "");
    return result.status === 0 && count ? Number(count[1]) : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The byte at `offset` of `path`, -1 when it cannot be read. */
export function byteAt(path: string, offset: number): number {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const one = new Uint8Array(1);
    return readSync(fd, one, 0, 1, offset) === 1 ? one[0] as number : -1;
  } catch {
    return -1;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What the other keeper of a stream counted in it (adoptTail): whole-stream line feeds, the byte before the tail. */
export interface CountedStream {
  readonly lineFeeds: number;
  /** -1 when unknown; it is then read from the spill file, if any. */
  readonly beforeTail: number;
}

/** The part of a stream between what was written to a store and its adopted tail. */
export interface UnseenRange {
  /** The other writer's spill file, null when there is none (capture). */
  readonly spill: string | null;
  readonly from: number;
  readonly to: number;
  readonly total: number;
  /** Line feeds the store counted before the range. */
  readonly feedsBefore: number;
  readonly tail: Uint8Array;
  /** What the other keeper counted, when it did: no file needs reading then. */
  readonly counted: CountedStream | undefined;
}

/**
 * Lines of the unseen range: from the keeper's count (the whole stream's
 * line feeds minus what the store and the tail hold), else from the spill
 * file (wc over the whole of it, or this range counted here).
 */
export function unseenLines(r: UnseenRange): RangeLines {
  const { spill, counted } = r;
  if (counted !== undefined) {
    const lastByte = counted.beforeTail !== -1 || spill === null ? counted.beforeTail : byteAt(spill, r.to - 1);
    return { lineFeeds: Math.max(0, counted.lineFeeds - r.feedsBefore - countLineFeeds(r.tail)), lastByte };
  }
  if (spill === null) return { lineFeeds: 0, lastByte: -1 };
  const whole = fileLineFeeds(spill, r.total);
  if (whole === null) return rangeLineFeeds(spill, r.from, r.to);
  return { lineFeeds: Math.max(0, whole - r.feedsBefore - countLineFeeds(r.tail)), lastByte: byteAt(spill, r.to - 1) };
}
