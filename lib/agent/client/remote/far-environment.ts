// The environment of a session or job started from another machine
// (--host, --via). It is built where the program runs, by the `corral
// connect` there (cli/commands/connect/framed-relay.ts), from that
// machine's own environment and config, under the caller's flags (--env,
// --term, --keep-env, --clear-env, --scrub/--no-scrub), by the same rules
// as a local run (lib/env/child-env.ts). Nothing of the caller's own
// environment travels but what it set with --env: its secrets stay where
// they are. The caller learns what was withheld (names, never values) by
// asking first with ENV_PLAN_OP, which that connect answers itself.
import { buildChildEnv } from "../../../env/child-env.ts";
import type { CorralConfig } from "../../../config/schema.ts";
import { sessionEnvironment } from "../open-environment.ts";

/** The op a remote caller sends to learn the names its open or job-start would withhold; the far connect answers it. */
export const ENV_PLAN_OP = "remote-env-plan";

/** The env-shaping flags of run and collect, as a remote job-start carries them (`envFlags`). */
export interface RemoteEnvFlags {
  /** --clear-env: start from nothing (plus --keep-env, --env). */
  readonly clear?: boolean;
  /** --keep-env NAME (or a glob): passed although credential-shaped. */
  readonly keep?: readonly string[];
  /** --scrub/--no-scrub when given; else the far side's config key scrub. */
  readonly scrub?: boolean;
}

/** What the far side gives the program, and what it left out (names and a count only leave this machine). */
export interface FarEnvironment {
  readonly env: Record<string, string>;
  /** Credential-shaped names withheld, sorted. */
  readonly withheld: readonly string[];
  /** How many variables --clear-env left out. */
  readonly cleared: number;
}

type Json = Record<string, unknown>;
type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether these flags ask for what an earlier far side would not do (it
 * ignored them and scrubbed its own environment always): --scrub it did.
 */
export function shapesEnvironment(flags: RemoteEnvFlags | undefined): boolean {
  return flags !== undefined && (flags.clear === true || (flags.keep ?? []).length > 0 || flags.scrub === false);
}

/** The environment here for an `open` or `job-start` that came from afar; null for any other message. */
export function farEnvironment(message: Json, here: Env, config: CorralConfig): FarEnvironment | null {
  if (message.op !== "open" && message.op !== "job-start") return null;
  const set = typeof message.env === "object" && message.env !== null && !Array.isArray(message.env)
    ? Object.entries(message.env as Json)
      .filter((entry): entry is [string, string] => typeof entry[1] === "string")
      .map(([name, value]) => ({ name, value }))
    : [];
  if (message.op === "open") {
    let withheld: readonly string[] = [];
    const term = typeof message.term === "string" ? message.term : undefined;
    const env = sessionEnvironment(here, config, set, term, (names) => (withheld = names));
    return { env, withheld, cleared: 0 };
  }
  const flags = envFlagsOf(message.envFlags);
  const built = buildChildEnv({
    base: here,
    scrubPatterns: config.env.scrub,
    keepPatterns: config.env.keep,
    keepNames: flags.keep ?? [],
    scrub: flags.scrub ?? config.scrub,
    clear: flags.clear === true,
    set,
  });
  return { env: built.env, withheld: built.dropped, cleared: built.cleared };
}

/** The flags as they came over the wire; anything malformed counts as not given. */
function envFlagsOf(raw: unknown): RemoteEnvFlags {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const o = raw as Json;
  return {
    clear: o.clear === true,
    keep: Array.isArray(o.keep) ? o.keep.filter((name): name is string => typeof name === "string" && name !== "") : [],
    ...(typeof o.scrub === "boolean" ? { scrub: o.scrub } : {}),
  };
}
