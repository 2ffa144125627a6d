// The environment a child gets (DESIGN.md 4.7): the caller's, minus
// credential-shaped names, plus what the caller set explicitly. The names
// dropped are returned so `--explain` can list them; values never leave here.
import { NamePatterns } from "./name-pattern.ts";
import type { EnvAssignment } from "./assignment.ts";

/** How to build a child's environment; every field maps to one flag or config key. */
export interface ChildEnvOptions {
  /** The caller's environment. */
  readonly base: Readonly<Record<string, string | undefined>>;
  /** Word patterns dropped from `base` (config `env.scrub`; see name-pattern.ts). */
  readonly scrubPatterns: readonly string[];
  /** Name globs kept even when a scrub pattern matches (config `env.keep`). */
  readonly keepPatterns?: readonly string[];
  /** `--keep-env NAME` (or a glob): kept from `base` whatever else applies (also with `clear`). */
  readonly keepNames?: readonly string[];
  /** False for `--no-scrub`: pass `base` whole. */
  readonly scrub?: boolean;
  /** `--clear-env`: start from nothing (only `keepNames` and `set` pass). */
  readonly clear?: boolean;
  /** `--env NAME=VALUE`, applied last; explicit intent beats scrubbing. */
  readonly set?: readonly EnvAssignment[];
}

/** The environment to pass and the names left out of it (never values). */
export interface ChildEnv {
  readonly env: Record<string, string>;
  /** Names dropped because a scrub pattern matched, sorted. */
  readonly dropped: readonly string[];
  /** How many variables `--clear-env` left out (names not listed). */
  readonly cleared: number;
}

/** Builds a child's environment per DESIGN.md 4.7. */
export function buildChildEnv(options: ChildEnvOptions): ChildEnv {
  const scrub = new NamePatterns(options.scrubPatterns, "words");
  const keep = new NamePatterns(options.keepPatterns ?? []);
  const keepNames = new NamePatterns(options.keepNames ?? []);
  const env: Record<string, string> = {};
  const dropped: string[] = [];
  let cleared = 0;
  for (const [name, value] of Object.entries(options.base)) {
    if (value === undefined) continue;
    if (keepNames.matches(name)) {
      env[name] = value;
    } else if (options.clear === true) {
      cleared += 1;
    } else if (options.scrub !== false && scrub.matches(name) && !keep.matches(name)) {
      dropped.push(name);
    } else {
      env[name] = value;
    }
  }
  for (const { name, value } of options.set ?? []) env[name] = value;
  return { env, dropped: dropped.filter((name) => !(name in env)).sort(), cleared };
}
