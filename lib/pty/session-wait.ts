// `pty wait`: the first of text / regex / stable / exit / timeout wins. Event
// driven: conditions are re-checked after each chunk xterm parsed (so text
// that flashes by still counts), timers only for the durations themselves.
import type { IMarker } from "@xterm/headless";
import type { Screen } from "./screen.ts";
import { type Haystack, type Occurrence, type ScreenPattern, buildHaystack, findOccurrences } from "./screen-match.ts";
import { PtySessionError, type ScreenSnapshot } from "./snapshot.ts";

/** What to wait for; at least one of text, regex, stableMs, exit. */
export interface WaitCondition {
  readonly text?: string;
  readonly regex?: string | RegExp;
  /** Fires once the screen has not changed for this long (measured from the wait's start). */
  readonly stableMs?: number;
  readonly exit?: boolean;
  /**
   * Text/regex count only when they appear where they were not when the wait
   * began: a match is old when a match stood at the same column of the same
   * line at the start (lines are followed as they scroll), or when it lies in
   * the echo of input sent since the previous wait whose echo was not yet
   * complete on the screen (the first new whole occurrence of that input).
   */
  readonly newOnly?: boolean;
  readonly timeoutMs: number;
}

/** Which condition ended a wait. */
export type WaitFired = "text" | "regex" | "stable" | "exit" | "timeout";

/** The condition that fired and the screen at that moment. */
export interface WaitResult {
  readonly fired: WaitFired;
  readonly snapshot: ScreenSnapshot;
}

/** What a wait needs from its session. */
export interface WaitTarget {
  readonly screen: Screen;
  /** The program exited and every byte it wrote has been parsed. */
  hasExited(): boolean;
  onExit(listener: () => void): () => void;
  /** Input lines sent since the previous wait began (taken: the next wait starts afresh). */
  pendingInput(): string[];
  /** A snapshot of the screen as it is now; does not count as a read. */
  takeSnapshot(): ScreenSnapshot;
}

interface Baseline {
  readonly marker: IMarker | undefined;
  readonly row: number;
  readonly col: number;
  readonly buffer: "normal" | "alternate";
  readonly baseY: number;
}

function compileRegex(regex: string | RegExp): RegExp {
  if (regex instanceof RegExp) return regex;
  try {
    return new RegExp(regex, "m");
  } catch (error) {
    throw new PtySessionError("bad_value", `--regex ${JSON.stringify(regex)} is not a valid regular expression (${(error as Error).message})`);
  }
}

/** Waits on `target` for `cond`; rejects with the signal's reason when aborted. */
export async function waitOnScreen(target: WaitTarget, cond: WaitCondition, signal?: AbortSignal): Promise<WaitResult> {
  const patterns: Array<[WaitFired, ScreenPattern]> = [];
  if (cond.text !== undefined && cond.text !== "") patterns.push(["text", { text: cond.text }]);
  if (cond.regex !== undefined && cond.regex !== "") patterns.push(["regex", { regex: compileRegex(cond.regex) }]);
  if (patterns.length === 0 && cond.stableMs === undefined && cond.exit !== true) {
    throw new PtySessionError("bad_value", "wait needs a condition: text, regex, stable or exit");
  }
  if (!Number.isFinite(cond.timeoutMs) || cond.timeoutMs < 0) {
    throw new PtySessionError("bad_value", `timeout ${cond.timeoutMs} is not a duration; give e.g. 5000 ms`);
  }
  signal?.throwIfAborted();
  const screen = target.screen;
  await screen.settled();
  const newOnly = cond.newOnly === true;
  const baselines = new Map<ScreenPattern, Baseline[]>();
  const echoes: Array<{ pattern: ScreenPattern; baseline: Baseline[] }> = [];
  if (newOnly) {
    const hay = haystackOf(screen);
    for (const [, pattern] of patterns) baselines.set(pattern, markAll(screen, findOccurrences(hay, pattern)));
    for (const line of target.pendingInput()) {
      // An echo already complete on the screen is covered by the baseline;
      // one still to come (or half drawn) is the first new whole occurrence.
      const pattern = { text: line };
      if (findOccurrences(hay, pattern).length === 0) echoes.push({ pattern, baseline: [] });
    }
  }

  return await new Promise<WaitResult>((resolve, reject) => {
    const cleanups: Array<() => void> = [];
    let done = false;
    const finish = (result: WaitResult | Error) => {
      if (done) return;
      done = true;
      for (const cleanup of cleanups) cleanup();
      for (const list of [...baselines.values(), ...echoes.map((e) => e.baseline)]) for (const b of list) b.marker?.dispose();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };

    const isOld = (occ: Occurrence, baseline: readonly Baseline[]) =>
      baseline.some((b) => sameSpot(screen, b, occ));
    const matchFired = (): WaitFired | undefined => {
      if (patterns.length === 0) return undefined;
      const hay = haystackOf(screen);
      // Ranges taken by echoes of input typed just before the wait: not new.
      const echoRanges = echoes.flatMap(({ pattern, baseline }) => {
        const first = findOccurrences(hay, pattern).find((occ) => !isOld(occ, baseline));
        return first === undefined ? [] : [first];
      });
      for (const [fired, pattern] of patterns) {
        const found = findOccurrences(hay, pattern).filter((occ) =>
          !newOnly ||
          (!isOld(occ, baselines.get(pattern) ?? []) && !echoRanges.some((e) => e.start <= occ.start && occ.end <= e.end))
        );
        if (found.length > 0) return fired;
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
          const snapshot = target.takeSnapshot();
          if (snapshot.hash !== stableHash) {
            stableHash = snapshot.hash;
            stableSince = Date.now();
          }
          const quietFor = Date.now() - stableSince;
          if (quietFor >= stableMs) finish({ fired: "stable", snapshot });
          else armStable(stableMs - quietFor);
        });
      }, Math.max(0, delay));
    };
    cleanups.push(() => clearTimeout(stableTimer));

    let checkQueued = false;
    const check = () => {
      checkQueued = false;
      if (done) return;
      const fired = matchFired();
      if (fired !== undefined) return finish({ fired, snapshot: target.takeSnapshot() });
      if (cond.exit === true && target.hasExited()) return finish({ fired: "exit", snapshot: target.takeSnapshot() });
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

    const timeout = setTimeout(() => {
      void screen.settled().then(() => finish({ fired: "timeout", snapshot: target.takeSnapshot() }));
    }, cond.timeoutMs);
    cleanups.push(() => clearTimeout(timeout));
    if (signal !== undefined) {
      if (signal.aborted) return finish(signal.reason instanceof Error ? signal.reason : new Error("wait aborted"));
      const onAbort = () => finish(signal.reason instanceof Error ? signal.reason : new Error("wait aborted"));
      signal.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", onAbort));
    }
    stableHash = screen.grid().hash;
    armStable(cond.stableMs ?? 0);
    check();
  });
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
