// corral's timeout and the caller's AbortSignal, armed once for every
// backend: either one terminates the tree; only the timeout counts as
// "timed out" (ExitFacts.timedOut, exit status 124). And the one bounded
// wait on a promise the supervisors use while a tree ends (withinMs).
import type { SpawnSpec } from "./spec.ts";
import { startTimer } from "../runtime/timer.ts";

/**
 * Arms `spec.timeoutMs` and `spec.signal`: when the timeout fires,
 * `timedOut()` then `terminate()`; when the signal aborts, `terminate()`.
 * Returns the disarm to call once the child exited.
 */
export function armDeadline(spec: Pick<SpawnSpec, "timeoutMs" | "signal">, terminate: () => void, timedOut: () => void): () => void {
  const { timeoutMs, signal: abort } = spec;
  const stopTimer = timeoutMs === undefined ? undefined : startTimer(timeoutMs, () => {
    timedOut();
    terminate();
  });
  const onAbort = () => terminate();
  abort?.addEventListener("abort", onAbort, { once: true });
  if (abort?.aborted === true) onAbort();
  return () => {
    stopTimer?.();
    abort?.removeEventListener("abort", onAbort);
  };
}

/** The promise's value, or undefined when it did not settle within `ms`. */
export async function withinMs<T>(promise: Promise<T> | undefined, ms: number): Promise<T | undefined> {
  if (promise === undefined) return undefined;
  let stop: (() => void) | undefined;
  const expired = new Promise<undefined>((resolve) => (stop = startTimer(ms, () => resolve(undefined))));
  try {
    return await Promise.race([promise, expired]);
  } finally {
    stop?.();
  }
}
