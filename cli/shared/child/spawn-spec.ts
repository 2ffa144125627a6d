// Turns `run`/`collect` flags into a SpawnSpec: config defaults, durations,
// the child's environment. Every bad value becomes a UsageError (exit 2)
// whose one line names the flag and what would be right.
import process from "node:process";
import type { CorralConfig } from "../../../lib/config/schema.ts";
import { ConfigError, loadConfig } from "../../../lib/config/load.ts";
import { buildChildEnv } from "../../../lib/env/child-env.ts";
import type { SpawnSpec } from "../../../lib/supervise/spec.ts";
import type { CorralContext } from "../context.ts";
import { UsageError } from "../exit-status.ts";
import type { RunFlags } from "./flags.ts";
import { noCommandLine } from "../missing-argument.ts";

/** A spec ready to start, plus what `--explain` reports. */
export interface PreparedRun {
  readonly config: CorralConfig;
  readonly spec: SpawnSpec;
  /** Lines for `--explain` (names only, never values). */
  readonly explain: readonly string[];
  /** Names of variables scrubbed from the child's environment (never values). */
  readonly dropped: readonly string[];
  /** --quiet, else the config key `quiet`: corral's decisions go unsaid on stderr (the facts keep them). */
  readonly quiet: boolean;
}

/** The stdio part of a spec, chosen by the command. */
export type StdioSpec = Pick<SpawnSpec, "stdin" | "stdout" | "stderr">;

/** Checks flags and builds the spec; throws UsageError for a bad value or config. */
export async function prepareRun(
  context: CorralContext,
  flags: RunFlags,
  argv: readonly string[],
  stdio: StdioSpec,
  loaded?: CorralConfig,
  verb: "run" | "collect" = "run",
): Promise<PreparedRun> {
  const config = loaded ?? await loadCommandConfig(context);
  const [program, ...args] = argv;
  if (program === undefined || program === "") {
    throw new UsageError(noCommandLine(verb));
  }
  const timeoutMs = flags.timeout;
  const graceMs = flags.grace ?? config.graceMs;
  const set = flags.env ?? [];
  const childEnv = buildChildEnv({
    base: context.process.env,
    scrubPatterns: config.env.scrub,
    keepPatterns: config.env.keep,
    keepNames: flags.keepEnv ?? [],
    scrub: flags.scrub ?? config.scrub,
    clear: flags.clearEnv,
    set,
  });
  for (const name of flags.keepEnv ?? []) {
    if (name === "" || name.includes("=")) throw new UsageError(`--keep-env needs a variable NAME (no "="), e.g. --keep-env GITHUB_TOKEN`);
  }
  const explain: string[] = [];
  if (flags.explain) {
    explain.push(...envExplainLines(childEnv.dropped, childEnv.cleared));
    explain.push(`grace ${graceMs} ms; timeout ${timeoutMs === undefined ? "none" : `${timeoutMs} ms`}`);
  }
  const spec: SpawnSpec = {
    argv: [program, ...args],
    cwd: flags.cwd ?? context.process.cwd ?? process.cwd(),
    env: childEnv.env,
    ...stdio,
    graceMs,
    ...(timeoutMs === undefined || timeoutMs === 0 ? {} : { timeoutMs }),
    leaveRunning: flags.leaveRunning,
  };
  return { config, spec, explain, dropped: childEnv.dropped, quiet: flags.quiet ?? config.quiet };
}

/** `--explain`'s lines about the environment: each name withheld (never a value), and what --clear-env left out. */
export function envExplainLines(dropped: readonly string[], cleared: number): string[] {
  const lines = dropped.map((name) =>
    /^CORRAL_/i.test(name)
      ? `env: not passing ${name} (corral's own setting, kept from the commands it runs; --keep-env ${name} passes it)`
      : `env: not passing ${name} (credential-shaped; --keep-env ${name} passes it)`
  );
  if (cleared > 0) lines.push(`env: --clear-env left out ${cleared} variables`);
  return lines;
}

/** The effective config; a bad config file is a usage error (exit 2). */
export async function loadCommandConfig(context: CorralContext): Promise<CorralConfig> {
  try {
    return await loadConfig(context.process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
