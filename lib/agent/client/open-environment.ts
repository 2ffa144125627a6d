// The environment a session's program gets (DESIGN.md 4.7): the CALLER's,
// built on the client side and sent with `open`, so the agent's own
// environment (the first caller's, long ago) never leaks into a session.
import { buildChildEnv } from "../../env/child-env.ts";
import type { EnvAssignment } from "../../env/assignment.ts";
import type { CorralConfig } from "../../config/schema.ts";

/** Names that describe the caller's terminal, wrong inside the session's own. */
const TERMINAL_NAMES = ["COLUMNS", "LINES", "TERMCAP", "TMUX", "TMUX_PANE", "STY", "WINDOWID"];

/**
 * Scrubbed caller environment plus `set`; TERM is the caller's choice
 * (`--term`, else `--env TERM=`), else the configured default, never the
 * caller's own terminal type.
 */
export function sessionEnvironment(
  caller: Readonly<Record<string, string | undefined>>,
  config: CorralConfig,
  set: readonly EnvAssignment[] = [],
  term?: string,
  /** Told the names withheld (never values), for the line that names them. */
  onWithheld?: (names: readonly string[]) => void,
): Record<string, string> {
  const { env, dropped } = buildChildEnv({
    base: caller,
    scrubPatterns: config.env.scrub,
    keepPatterns: config.env.keep,
    scrub: config.scrub,
  });
  onWithheld?.(dropped.filter((name) => !(set.some((s) => s.name === name))));
  for (const name of TERMINAL_NAMES) delete env[name];
  env.TERM = config.terminal.term;
  for (const { name, value } of set) env[name] = value;
  if (term !== undefined) env.TERM = term;
  return env;
}
