// The flags `run` and `collect` share (and `run --tty/--bg` will extend).
// Durations and `--env` are parsed here by the shared flag parsers (one line
// naming the flag, exit 2; an `--env` value, maybe a secret, is never echoed
// back); the rest is checked in cli/shared/child/spawn-spec.ts.
import type { TypedFlagParameter, TypedPositionalParameters } from "@stricli/core";
import type { CorralContext } from "../context.ts";
import type { EnvAssignment } from "../../../lib/env/assignment.ts";
import { parseDurationFlag, parseEnvFlag } from "../flag-parsers.ts";
import { HELP_DEFAULT } from "../flag-defaults.ts";

/** Parsed flags common to `run` and `collect`. */
export interface RunFlags {
  readonly cwd?: string;
  readonly env?: readonly EnvAssignment[];
  readonly keepEnv?: readonly string[];
  /** Undefined when not given: the config key `scrub` decides (default true). */
  readonly scrub?: boolean;
  /** Undefined when not given: the config key `quiet` decides (default false). */
  readonly quiet?: boolean;
  readonly clearEnv: boolean;
  readonly explain: boolean;
  readonly timeout?: number;
  readonly grace?: number;
  readonly facts?: string;
  readonly leaveRunning: boolean;
}

type FlagTable<T> = { readonly [K in keyof T]-?: TypedFlagParameter<T[K], CorralContext> };

const text = (input: string): string => input;

/** Flag definitions for RunFlags, spread into both commands' parameters. */
export const runFlagParameters: FlagTable<RunFlags> = {
  cwd: { kind: "parsed", parse: text, optional: true, placeholder: "dir", brief: "Working directory for the command (must exist)" },
  env: {
    kind: "parsed",
    parse: parseEnvFlag,
    optional: true,
    variadic: true,
    placeholder: "name=value",
    brief: "Set a variable for the command (repeatable); beats scrubbing",
  },
  keepEnv: {
    kind: "parsed",
    parse: text,
    optional: true,
    variadic: true,
    placeholder: "name",
    brief: "Pass this variable although it looks like a credential (repeatable; * globs)",
  },
  scrub: { kind: "boolean", optional: true, brief: "Withhold credential-shaped variables, named on stderr (default; --no-scrub passes all; config key scrub)" },
  quiet: { kind: "boolean", optional: true, brief: "Do not say corral's own decisions on stderr (withheld variables, timeout, kills); the facts keep them" },
  clearEnv: { kind: "boolean", default: false, brief: "Start the command with an empty environment (plus --env, --keep-env)" },
  explain: { kind: "boolean", default: false, brief: "Say on stderr what corral decided: variable names dropped (never values), grace, backend, pid" },
  timeout: { kind: "parsed", parse: parseDurationFlag("--timeout"), optional: true, placeholder: "dur", brief: "Terminate the whole tree after this long; exit 124 (e.g. 30s, 2m, 1h30m, 1d)" },
  grace: { kind: "parsed", parse: parseDurationFlag("--grace"), optional: true, placeholder: "dur", brief: `Time between SIGTERM and SIGKILL, and for output EOF after exit (default ${HELP_DEFAULT.grace})` },
  facts: { kind: "parsed", parse: text, optional: true, placeholder: "file", brief: "Write the exit facts as JSON to this file (collect: - for stdout, after the rest)" },
  leaveRunning: { kind: "boolean", default: false, brief: "Do not terminate what the command leaves running when it exits" },
};

/** `-- CMD [ARGS...]`: the command, never passed through a shell. */
export const commandPositional: TypedPositionalParameters<readonly string[], CorralContext> = {
  kind: "array",
  parameter: { brief: "The command and its arguments (after --)", parse: text, placeholder: "command" },
  minimum: 1,
};
