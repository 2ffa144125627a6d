// The line, heartbeat and folding choices of `collect`, checked before the
// child starts: one line naming the flag and what would be right (exit 2).
import type { CorralConfig } from "../../../lib/config/schema.ts";
import { DurationError, parseDuration } from "../../../lib/units/duration.ts";
import type { LineLimits } from "./report.ts";
import { CI_HEARTBEAT_MS } from "./heartbeat.ts";
import { UsageError } from "../../shared/exit-status.ts";

/** --head-lines and --tail-lines. */
export function lineLimitFlags(flags: { readonly headLines?: number; readonly tailLines?: number }): LineLimits {
  return { headLines: flags.headLines, tailLines: flags.tailLines };
}

/** True when the environment says this is a CI job (GitHub, GitLab and most others set CI). */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== "" && ci !== "false" && ci !== "0";
}

/**
 * The heartbeat period in ms, or undefined for none: the flag (a duration,
 * or `off`/`0`), else the config key, else 5m under CI and none elsewhere.
 */
export function heartbeatPeriod(text: string | undefined, config: CorralConfig, env: NodeJS.ProcessEnv): number | undefined {
  if (text !== undefined) {
    if (text.trim() === "off") return undefined;
    let ms: number;
    try {
      ms = parseDuration(text);
    } catch (error) {
      if (error instanceof DurationError) throw new UsageError(`--heartbeat: ${error.message}, or off`);
      throw error;
    }
    return ms === 0 ? undefined : ms;
  }
  if (typeof config.heartbeat === "number") return config.heartbeat;
  if (config.heartbeat === "off") return undefined;
  return inCi(env) ? CI_HEARTBEAT_MS : undefined;
}
