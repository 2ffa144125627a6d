// How sessions read in text output: an exit in a word or two, an age.
import type { ExitFacts } from "../lib/core/exit-facts.ts";

/** "exited 0", "killed SIGHUP", "running" (no facts yet). */
export function describeExit(exit: ExitFacts | null): string {
  if (exit === null) return "running";
  if (exit.signal !== null) return `killed ${exit.signal}${exit.forced ? " (forced)" : ""}`;
  return `exited ${exit.code ?? "?"}`;
}

/** 42s, 5m, 3h, 2d: enough to tell sessions apart. */
export function formatAge(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}
