// Milliseconds on a monotonic clock, for durations and graces. Not
// performance.now(): on Node 20 its first use loads perf_hooks and its
// internals, some 1.5 ms of every `corral run` (start-up, issue 2).
import process from "node:process";

/** A monotonic timestamp in milliseconds (fractional); only differences mean anything. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
