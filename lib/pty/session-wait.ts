// `pty wait`: the first of text / regex / stable / ready / exit / timeout
// wins. Text and regex are looked for in the output stream after the start
// position (wait-stream.ts: lines that scrolled away count) and on the
// screen (text a full-screen program drew piece by piece). Event driven:
// conditions are re-checked after each chunk xterm parsed, timers only for
// the durations themselves.
import type { IMarker } from "@xterm/headless";
import type { Screen } from "./screen.ts";
import type { StreamWindow } from "./stream-window.ts";
import { type Haystack, type Occurrence, buildHaystack, findOccurrences } from "./screen-match.ts";
import { PtySessionError, type ScreenSnapshot } from "./snapshot.ts";
import { type StreamHit, StreamWatch } from "./wait-stream.ts";
import { watchReady } from "./ready-watch.ts";
import { compilePatterns, describePattern, type PatternMatch, PatternError, type WaitPattern } from "./wait-pattern.ts";

/** What to wait for; at least one of text, regex, stableMs, ready, exit. */
export interface WaitCondition {
  /** Literal texts (any of them). */
  readonly text?: string | readonly string[];
  /** RE2 regular expressions (any of them); ^ and $ match at line boundaries. */
  readonly regex?: string | readonly string[];
  /** Fires once the screen has not changed for this long (measured from the wait's start). */
  readonly stableMs?: number;
  /** Fires when the foreground program waits for input (see `isReady`). */
  readonly ready?: boolean;
  readonly exit?: boolean;
  /**
   * Only output after this position counts: text and regex match the output
   * written after it, and the screen only where a match was not already
   * showing when the wait began.
   */
  readonly after?: number;
  /** `after` the position when the wait began. */
  readonly newOnly?: boolean;
  /** 0 to MAX_DURATION_MS (lib/core/duration.ts): checked where it enters (the CLI flag, the agent's field), trusted here. */
  readonly timeoutMs: number;
}

/** Which condition ended a wait. */
export type WaitFired = "text" | "regex" | "stable" | "ready" | "exit" | "timeout";

/** What matched, where, and the position to start the next wait from. */
export interface WaitMatch {
  readonly kind: "text" | "regex";
  /** Index of the pattern among those of its kind, in the order given. */
  readonly index: number;
  readonly pattern: string;
  readonly text: string;
  readonly groups: readonly (string | null)[];
  readonly named: Readonly<Record<string, string | null>>;
  /** Output position just after the match (for a screen match: the output parsed when it was seen). */
  readonly position: number;
  /** Found in the output stream, or only on the screen. */
  readonly from: "stream" | "screen";
}

/** The condition that fired and the screen at that moment. */
export interface WaitResult {
  readonly fired: WaitFired;
  readonly snapshot: ScreenSnapshot;
  readonly match?: WaitMatch;
  /** The output position when the wait ended. */
  readonly position: number;
  /** Some output after the start position was no longer kept when the wait began. */
  readonly windowExceeded: boolean;
}

/** What a wait needs from its session. */
export interface WaitTarget {
  readonly screen: Screen;
  readonly stream: StreamWindow;
  /** The program exited and every byte it wrote has been parsed. */
  hasExited(): boolean;
  onExit(listener: () => void): () => void;
  /** A snapshot of the screen as it is now; does not count as a read. */
  takeSnapshot(): ScreenSnapshot;
  /** The foreground program is blocked reading the terminal with nothing unread. */
  isReady?(): Promise<boolean>;
  /**
   * The hooked shell has drawn its prompt (its end mark came) and nothing was
   * typed after it: the shell's own word that it waits for a line, so a ready
   * look needs no second look to be sure (undefined: no hooked shell).
   */
  promptDrawn?(): boolean;
}

interface Baseline {
  readonly marker: IMarker | undefined;
  readonly row: number;
  readonly col: number;
  readonly buffer: "normal" | "alternate";
  readonly baseY: number;
}

const listOf = (value: string | readonly string[] | undefined): string[] =>
  (value === undefined ? [] : typeof value === "string" ? [value] : [...value]).filter((v) => v !== "");

/** Waits on `target` for `cond`; rejects with the signal's reason when aborted. */
export async function waitOnScreen(target: WaitTarget, cond: WaitCondition, signal?: AbortSignal): Promise<WaitResult> {
  let patterns: WaitPattern[];
  try {
    patterns = compilePatterns(listOf(cond.text), listOf(cond.regex));
  } catch (error) {
    if (error instanceof PatternError) throw new PtySessionError("bad_value", error.message);
    throw error;
  }
  if (patterns.length === 0 && cond.stableMs === undefined && cond.exit !== true && cond.ready !== true) {
    throw new PtySessionError("bad_value", "wait needs a condition: text, regex, stable, ready or exit");
  }
  if (cond.ready === true && target.isReady === undefined) {
    throw new PtySessionError("bad_value", "this session cannot tell when its program waits for input");
  }
  signal?.throwIfAborted();
  const { screen, stream } = target;
  const from = cond.after ?? stream.position;
  const screenOnlyNew = cond.after !== undefined || cond.newOnly === true;

  let streamHit: StreamHit | undefined;
  let onStreamHit: (hit: StreamHit) => void = (hit) => {
    streamHit ??= hit;
  };
  // Set up before any await: every line from `from` on is seen.
  const watch = new StreamWatch(stream, from, patterns, (hit) => onStreamHit(hit));
  try {
    await screen.settled();
  } catch (error) {
    watch.stop();
    throw error;
  }
  const baselines = new Map<WaitPattern, Baseline[]>();
  if (screenOnlyNew) {
    const hay = haystackOf(screen);
    for (const pattern of patterns) baselines.set(pattern, markAll(screen, findOccurrences(hay, pattern)));
  }

  return await new Promise<WaitResult>((resolve, reject) => {
    const cleanups: Array<() => void> = [() => watch.stop()];
    let done = false;
    // Ends the wait; the screen in the reply shows every byte received by then.
    const finish = (result: Omit<WaitResult, "snapshot" | "position" | "windowExceeded"> | Error) => {
      if (done) return;
      done = true;
      for (const cleanup of cleanups) cleanup();
      for (const list of baselines.values()) for (const b of list) b.marker?.dispose();
      if (result instanceof Error) return reject(result);
      void screen.settled().then(() =>
        resolve({ ...result, snapshot: target.takeSnapshot(), position: stream.position, windowExceeded: watch.windowExceeded })
      );
    };
    const fromStream = (hit: StreamHit) => finish({ fired: hit.pattern.kind, match: matchOf(hit.pattern, hit.match, hit.position, "stream") });
    onStreamHit = fromStream;
    // A match found in the output before the screen settled (or in output kept from before the wait).
    if (streamHit !== undefined) return fromStream(streamHit);

    const isOld = (occ: Occurrence, baseline: readonly Baseline[]) => baseline.some((b) => sameSpot(screen, b, occ));
    const screenHit = (): WaitMatch | undefined => {
      if (patterns.length === 0) return undefined;
      const hay = haystackOf(screen);
      for (const pattern of patterns) {
        const found = findOccurrences(hay, pattern).find((occ) => !screenOnlyNew || !isOld(occ, baselines.get(pattern) ?? []));
        if (found !== undefined) return matchOf(pattern, found.match, stream.position, "screen");
      }
      return undefined;
    };

    let stableTimer: ReturnType<typeof setTimeout> | undefined;
    let stableHash = "";
    let stableSince = Date.now();
    const armStable = (delay: number) => {
      if (cond.stableMs === undefined) return;
      const stableMs = cond.stableMs;
      clearTimeout(stableTimer);
      stableTimer = setTimeout(() => {
        // Output still waiting to be parsed is a change in the making: look after it.
        void screen.settled().then(() => {
          if (done) return;
          const hash = screen.grid().hash;
          if (hash !== stableHash) {
            stableHash = hash;
            stableSince = Date.now();
          }
          const quietFor = Date.now() - stableSince;
          if (quietFor >= stableMs) finish({ fired: "stable" });
          else armStable(stableMs - quietFor);
        });
      }, Math.max(0, delay));
    };
    cleanups.push(() => clearTimeout(stableTimer));

    let checkQueued = false;
    const check = () => {
      checkQueued = false;
      if (done) return;
      const current = watch.checkCurrent();
      if (current !== undefined) return fromStream(current);
      const onScreen = screenHit();
      if (onScreen !== undefined) return finish({ fired: onScreen.kind, match: onScreen });
      // Once the program is gone nothing more can appear: the wait ends with
      // the exit (the caller tells "asked for" from "instead").
      if (target.hasExited()) return finish({ fired: "exit" });
      if (cond.stableMs !== undefined) {
        const hash = screen.grid().hash;
        if (hash !== stableHash) {
          stableHash = hash;
          stableSince = Date.now();
          armStable(cond.stableMs);
        }
      }
    };
    // xterm runs the callbacks of one parse batch back to back: check once per batch.
    cleanups.push(screen.onParsed(() => {
      if (!checkQueued) {
        checkQueued = true;
        queueMicrotask(check);
      }
    }));
    cleanups.push(target.onExit(() => check()));

    if (cond.ready === true && target.isReady !== undefined) {
      const isReady = target.isReady.bind(target);
      const promptDrawn = target.promptDrawn?.bind(target);
      cleanups.push(watchReady(
        { screen, stream, isReady, ...(promptDrawn !== undefined ? { promptDrawn } : {}) },
        cond.after,
        () => done,
        () => void finish({ fired: "ready" }),
      ));
    }

    const timeout = setTimeout(() => finish({ fired: "timeout" }), cond.timeoutMs);
    cleanups.push(() => clearTimeout(timeout));
    if (signal !== undefined) {
      if (signal.aborted) return finish(signal.reason instanceof Error ? signal.reason : new Error("wait aborted"));
      const onAbort = () => finish(signal.reason instanceof Error ? signal.reason : new Error("wait aborted"));
      signal.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", onAbort));
    }
    // Only a stable condition compares hashes: no screen read for the others.
    if (cond.stableMs !== undefined) stableHash = screen.grid().hash;
    armStable(cond.stableMs ?? 0);
    check();
  });
}

function matchOf(pattern: WaitPattern, match: PatternMatch, position: number, from: "stream" | "screen"): WaitMatch {
  return {
    kind: pattern.kind,
    index: pattern.index,
    pattern: describePattern(pattern),
    text: match.text,
    groups: match.groups,
    named: match.named,
    position,
    from,
  };
}

function haystackOf(screen: Screen): Haystack {
  return buildHaystack(screen.matchRows(), screen.wrappedRows());
}

function markAll(screen: Screen, occurrences: readonly Occurrence[]): Baseline[] {
  return occurrences.map((occ) => ({
    marker: screen.markRow(occ.row),
    row: occ.row,
    col: occ.col,
    buffer: screen.bufferType,
    baseY: screen.baseY,
  }));
}

// Same line (followed through scrolling by its marker) and same column.
function sameSpot(screen: Screen, b: Baseline, occ: Occurrence): boolean {
  if (b.buffer !== screen.bufferType || b.col !== occ.col) return false;
  if (b.marker === undefined) return b.baseY + b.row === screen.baseY + occ.row;
  return !b.marker.isDisposed && b.marker.line === screen.baseY + occ.row;
}
