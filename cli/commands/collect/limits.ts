// The line, heartbeat and folding choices of `collect`, checked before the
// child starts: one line naming the flag and what would be right (exit 2).
import type { CorralConfig } from "../../../lib/config/schema.ts";
import type { LineLimits } from "./report.ts";
import { CI_HEARTBEAT_MS } from "./heartbeat.ts";

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
export function heartbeatPeriod(flag: number | undefined, config: CorralConfig, env: NodeJS.ProcessEnv): number | undefined {
  if (flag !== undefined) return flag === 0 ? undefined : flag;
  if (typeof config.heartbeat === "number") return config.heartbeat;
  if (config.heartbeat === "off") return undefined;
  return inCi(env) ? CI_HEARTBEAT_MS : undefined;
}
