// How a guardian's verdicts become corral's ExitFacts (lib/core): waitpid's
// exit, plus what the owner knows (its timeout, whether SIGKILL was needed,
// whether every output stream reached EOF), and its errno numbers as the
// names Node gives the same failures.
import { constants } from "node:os";
import type { ExitFacts } from "../../core/exit-facts.ts";
import { signalName } from "../../runtime/signals.ts";
import { ExitStatus } from "../../core/exit-status.ts";
import type { ExitedEvent, TerminateReceipt } from "./protocol.ts";

/** What the owner adds to the guardian's exit event. */
export interface OwnerFacts {
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly outputComplete: boolean;
  /** The receipt of the terminate that ended the tree, if one ran. */
  readonly receipt?: TerminateReceipt;
}

/** ExitFacts from the guardian's exited event (waitpid's status, not a guess). */
export function exitFactsOf(exited: ExitedEvent, owner: OwnerFacts): ExitFacts {
  return {
    code: exited.signal === null ? exited.code : null,
    signal: exited.signal === null ? null : signalName(exited.signal),
    timedOut: owner.timedOut,
    forced: owner.receipt?.forced ?? false,
    durationMs: owner.durationMs,
    outputComplete: owner.outputComplete,
  };
}

/** The exit status for an exec failure (DESIGN.md 4.1): not found 127, else 126. */
export function spawnFailureStatus(errno: number): number {
  return errno === 2 /* ENOENT */ ? ExitStatus.notFound : ExitStatus.notExecutable;
}

/** "ENOSPC" for 28: the code Node would give the same failure (a SpillError carries it). */
export function errnoName(errno: number): string {
  for (const [name, value] of Object.entries(constants.errno)) if (value === errno) return name;
  return `errno ${errno}`;
}
