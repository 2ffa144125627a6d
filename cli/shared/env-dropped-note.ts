// The one stderr line that explains a failure scrubbing may have caused
// (DESIGN.md 4.7): when the command failed and variables were left out of its
// environment, name them (names only: values never leave lib/env) and say how
// to pass them. Not after --explain (it listed them already), a timeout, or a
// signal corral forwarded: those failures are not the environment's doing.
import type { ExitFacts } from "../../lib/core/exit-facts.ts";
import { exitStatusOf } from "../../lib/runtime/signals.ts";
import type { CorralContext } from "./context.ts";

/**
 * The dropped names worth telling a user about: corral's own `CORRAL_*`
 * settings are never passed on, and never what made a command fail.
 */
export function credentialNames(dropped: readonly string[]): readonly string[] {
  return dropped.filter((name) => !/^CORRAL_/i.test(name));
}

/** Writes the note when it applies. */
export function noteDroppedEnv(context: CorralContext, facts: ExitFacts, allDropped: readonly string[], explained: boolean): void {
  const dropped = credentialNames(allDropped);
  if (dropped.length === 0 || explained || facts.timedOut || context.process.dieOf !== undefined) return;
  const status = exitStatusOf(facts);
  if (status === 0) return;
  const what = dropped.length === 1 ? "1 variable was" : `${dropped.length} variables were`;
  context.process.stderr.write(
    `corral: the command exited ${status}; ${what} not passed to it (credential-shaped): ${dropped.join(", ")}; --keep-env NAME passes one, --no-scrub all\n`,
  );
}
