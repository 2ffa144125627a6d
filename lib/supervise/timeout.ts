// corral's timeout and the caller's AbortSignal, armed once for every
// backend: either one terminates the tree; only the timeout counts as
// "timed out" (ExitFacts.timedOut, exit status 124).
import type { SpawnSpec } from "./spec.ts";

/**
 * Arms `spec.timeoutMs` and `spec.signal`: when the timeout fires,
 * `timedOut()` then `terminate()`; when the signal aborts, `terminate()`.
 * Returns the disarm to call once the child exited.
 */
export function armDeadline(spec: Pick<SpawnSpec, "timeoutMs" | "signal">, terminate: () => void, timedOut: () => void): () => void {
  const { timeoutMs, signal: abort } = spec;
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut();
    terminate();
  }, timeoutMs);
  const onAbort = () => terminate();
  abort?.addEventListener("abort", onAbort, { once: true });
  if (abort?.aborted === true) onAbort();
  return () => {
    clearTimeout(timer);
    abort?.removeEventListener("abort", onAbort);
  };
}
