// `collect --heartbeat DUR`: proof of life for CI watchdogs that kill a step
// after N quiet minutes, and for a person watching a log. One stderr line
// every DUR (with --live, only after DUR without output, since the output is
// proof enough); on a terminal, a one-line status rewritten in place and
// erased before anything else is written, never on a pipe or a file.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { formatDuration } from "../../../lib/core/duration.ts";
import { startBackgroundTicker } from "../../../lib/runtime/timer.ts";
import { countLineFeeds } from "../../../lib/output/line-feeds.ts";

/** What `--heartbeat` defaults to when $CI is set and neither flag nor config says otherwise. */
export const CI_HEARTBEAT_MS = 5 * 60_000;

/** Widest last line quoted, in characters (about columns for most text). */
const LAST_LINE_COLUMNS = 120;
/** How often progress is looked at: often enough for --live's quiet test and the status line. */
const TICK_MS = 250;
const STATUS_EVERY_MS = 1000;

export interface HeartbeatOptions {
  /** Period in ms; undefined: no heartbeat lines. */
  readonly everyMs: number | undefined;
  /** --live: a heartbeat only after everyMs without output. */
  readonly live: boolean;
  /** Show the in-place status line (stderr is a terminal, not --live). */
  readonly status: boolean;
  readonly stderr: NodeJS.WriteStream;
}

/** Progress of the stores: bytes, lines, last line. */
interface Progress {
  readonly bytes: number;
  readonly lines: number;
  readonly lastLine: string;
}

/** "1 line", "2 lines". */
export function linesWord(n: number): string {
  return n === 1 ? "1 line" : `${n} lines`;
}

/**
 * Lines of a spill file another writer (the guardian) is writing: only the
 * bytes added since the last look are read, so each byte is counted once.
 */
class SpillLineCount {
  #offset = 0;
  #lineFeeds = 0;
  #endsInLf = true;
  readonly #buffer = new Uint8Array(1024 * 1024);

  constructor(readonly path: string) {}

  /** Lines so far (an unterminated last line counts), after reading up to `size`. */
  linesUpTo(size: number): number {
    if (size > this.#offset) {
      let fd: number | undefined;
      try {
        fd = openSync(this.path, "r");
        while (this.#offset < size) {
          const n = readSync(fd, this.#buffer, 0, Math.min(this.#buffer.length, size - this.#offset), this.#offset);
          if (n <= 0) break;
          this.#lineFeeds += countLineFeeds(this.#buffer.subarray(0, n));
          this.#endsInLf = this.#buffer[n - 1] === 0x0a;
          this.#offset += n;
        }
      } catch {
        // Not there yet, or gone: the count stands.
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    }
    return this.#lineFeeds + (this.#offset > 0 && !this.#endsInLf ? 1 : 0);
  }
}

/** Watches the stores while the command runs; stop() before the report. */
export class Heartbeat {
  readonly #stopTicker: (() => void) | undefined;
  readonly #startedAt = performance.now();
  #lastBeatAt = performance.now();
  #lastActivityAt = performance.now();
  #lastBytes = 0;
  #statusShown = false;
  #lastStatusAt = 0;
  #lastStatusBytes = 0;
  readonly #spillLines = new Map<string, SpillLineCount>();

  constructor(readonly stores: readonly BoundedStore[], readonly options: HeartbeatOptions) {
    if (options.everyMs === undefined && !options.status) return;
    // Not the global setInterval: under Deno its first use loads node:timers (lib/runtime/timer.ts).
    this.#stopTicker = startBackgroundTicker(Math.min(TICK_MS, options.everyMs ?? TICK_MS), () => this.#tick());
  }

  /** Stops and erases the status line, so the report starts on a clean line. */
  stop(): void {
    this.#stopTicker?.();
    this.#eraseStatus();
  }

  #tick(): void {
    const now = performance.now();
    const every = this.options.everyMs;
    // A spill file another writer fills is read to count its lines only when a line is due.
    const beatDue = every !== undefined && now - (this.options.live ? Math.max(this.#lastActivityAt, this.#lastBeatAt) : this.#lastBeatAt) >= every;
    const statusDue = this.options.status && now - this.#lastStatusAt >= STATUS_EVERY_MS;
    const progress = progressOf(this.stores, every !== undefined, beatDue || statusDue ? this.#spillLines : null);
    if (progress.bytes !== this.#lastBytes) {
      this.#lastBytes = progress.bytes;
      this.#lastActivityAt = now;
    }
    if (every !== undefined) {
      const since = this.options.live ? Math.max(this.#lastActivityAt, this.#lastBeatAt) : this.#lastBeatAt;
      if (now - since >= every) {
        this.#lastBeatAt = now;
        this.#eraseStatus();
        this.options.stderr.write(`${heartbeatLine(now - this.#startedAt, progress)}\n`);
      }
    }
    if (this.options.status && now - this.#lastStatusAt >= STATUS_EVERY_MS) {
      const seconds = this.#lastStatusAt === 0 ? (now - this.#startedAt) / 1000 : (now - this.#lastStatusAt) / 1000;
      const rate = seconds > 0 ? (progress.bytes - this.#lastStatusBytes) / seconds : 0;
      this.#lastStatusAt = now;
      this.#lastStatusBytes = progress.bytes;
      const lines = `, ${linesWord(progress.lines)}`;
      this.options.stderr.write(`\r\x1b[Kcorral: ${elapsed(now - this.#startedAt)}, ${progress.bytes} bytes${lines}, ${humanRate(rate)}`);
      this.#statusShown = true;
    }
  }

  #eraseStatus(): void {
    if (!this.#statusShown) return;
    this.options.stderr.write("\r\x1b[K");
    this.#statusShown = false;
  }
}

/** `corral: heartbeat: 3s elapsed, 1234 bytes, 56 lines so far; last line: ...` (`no output yet` before any byte). */
export function heartbeatLine(elapsedMs: number, progress: Progress): string {
  const lines = `, ${linesWord(progress.lines)}`;
  // "last line: " with nothing after it reads like a lost line; say that nothing came.
  const last = progress.bytes === 0 ? "no output yet" : `last line: ${progress.lastLine}`;
  return `corral: heartbeat: ${elapsed(elapsedMs)} elapsed, ${progress.bytes} bytes${lines} so far; ${last}`;
}

function elapsed(ms: number): string {
  return formatDuration(Math.floor(ms / 1000) * 1000);
}

function humanRate(bytesPerSecond: number): string {
  for (const [unit, scale] of [["GB/s", 1e9], ["MB/s", 1e6], ["kB/s", 1e3]] as const) {
    if (bytesPerSecond >= scale) return `${(bytesPerSecond / scale).toFixed(1)} ${unit}`;
  }
  return `${Math.round(bytesPerSecond)} B/s`;
}

function progressOf(stores: readonly BoundedStore[], wantLastLine: boolean, spillLines: Map<string, SpillLineCount> | null): Progress {
  let bytes = 0;
  let lines = 0;
  let last: Uint8Array = new Uint8Array(0);
  for (const store of stores) {
    if (store.spillIsExternal && store.spillPath !== null) {
      // The guardian writes the spill file itself: its size is the progress.
      const fromFile = fileProgress(store.spillPath, wantLastLine);
      bytes += fromFile.bytes;
      if (spillLines !== null) {
        let counter = spillLines.get(store.spillPath);
        if (counter === undefined) spillLines.set(store.spillPath, counter = new SpillLineCount(store.spillPath));
        lines += counter.linesUpTo(fromFile.bytes);
      }
      if (fromFile.last.length > 0) last = fromFile.last;
      continue;
    }
    // The store's own count, or the guardian's while it keeps the stream (capture).
    const so = store.progress(4096);
    bytes += so.bytes;
    lines += so.lines;
    if (wantLastLine && so.last.length > 0) last = so.last;
  }
  return { bytes, lines, lastLine: wantLastLine ? lastLineOf(last) : "" };
}

function fileProgress(path: string, wantLast: boolean): { bytes: number; last: Uint8Array } {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    if (!wantLast || size === 0) return { bytes: size, last: new Uint8Array(0) };
    const buffer = new Uint8Array(Math.min(4096, size));
    const n = readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    return { bytes: size, last: buffer.subarray(0, n) };
  } catch {
    return { bytes: 0, last: new Uint8Array(0) };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The last non-empty line of `bytes` as text, control characters dropped, cut to 120 columns. */
export function lastLineOf(bytes: Uint8Array): string {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const lines = text.split(/\r?\n|\r/).filter((l) => l.trim() !== "");
  // deno-lint-ignore no-control-regex
  const line = (lines[lines.length - 1] ?? "").replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/[\x00-\x1f\x7f]/g, "");
  const chars = [...line];
  return chars.length > LAST_LINE_COLUMNS ? chars.slice(0, LAST_LINE_COLUMNS - 1).join("") + "…" : line;
}
