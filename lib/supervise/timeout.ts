// corral's timeout and the caller's AbortSignal, armed once for every
// backend: either one terminates the tree; only the timeout counts as
// "timed out" (ExitFacts.timedOut, exit status 124).
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
