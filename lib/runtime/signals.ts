// Signal numbers are the platform's (SIGUSR1 is 10 on Linux, 30 on macOS),
// so they come from the runtime's table, here, and not from lib/core: and with
// them the exit status a set of exit facts gives (128+N for a signal).
import { constants } from "node:os";
import type { ExitFacts } from "../core/exit-facts.ts";
import { ExitStatus, signalStatus } from "../core/exit-status.ts";

/**
 * The exit status a shell would report for these facts (DESIGN.md 4.1). A
 * lost supervisor with no known exit is corral's own failure (125), not a
 * status the child never had.
 */
export function exitStatusOf(facts: ExitFacts): number {
  if (facts.timedOut) return ExitStatus.timedOut;
  if (facts.signal !== null) return signalStatus(signalNumber(facts.signal));
  return facts.code ?? ExitStatus.corralFailure;
}

/** Signal number for a name like "SIGTERM"; 0 when unknown. */
export function signalNumber(name: string): number {
  return (constants.signals as Record<string, number | undefined>)[name] ?? 0;
}

/** Signal name for a number, e.g. 9 -> "SIGKILL"; "SIG<n>" when unknown. */
export function signalName(n: number): string {
  for (const [name, value] of Object.entries(constants.signals)) {
    if (value === n) return name;
  }
  return `SIG${n}`;
}
