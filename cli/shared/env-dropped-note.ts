// The one stderr line that says corral withheld variables from a command
// (DESIGN.md 4.7, 4.10): said when the command starts, before any error of
// its own (a tool's confusing auth failure reads differently after it).
// Names only: values never leave lib/env. corral's own `CORRAL_*` settings
// are never passed on and are not credentials: they are not named here.
// `--quiet` (or the config key `quiet`) silences it; `envDropped` in the
// facts of `collect --json` keeps the names either way.
import type { CorralContext } from "./context.ts";

/**
 * The dropped names worth telling a user about: corral's own `CORRAL_*`
 * settings are never passed on, and never what made a command fail.
 */
export function credentialNames(dropped: readonly string[]): readonly string[] {
  return dropped.filter((name) => !/^CORRAL_/i.test(name));
}

/** `corral: withheld A, B from the command (credential-shaped; ...)`, or "" when nothing was withheld. */
export function withheldLine(allDropped: readonly string[], how = "--keep-env NAME or --no-scrub"): string {
  const dropped = credentialNames(allDropped);
  if (dropped.length === 0) return "";
  const them = dropped.length === 1 ? "passes it" : "passes them";
  return `corral: withheld ${dropped.join(", ")} from the command (credential-shaped; ${how} ${them})\n`;
}

/** Writes the line unless quiet; `how`: the flags that pass them, for commands other than run and collect. */
export function announceWithheld(context: CorralContext, allDropped: readonly string[], quiet: boolean, how?: string): void {
  const line = withheldLine(allDropped, how);
  if (line !== "" && !quiet) context.process.stderr.write(line);
}
