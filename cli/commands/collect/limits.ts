// The line, heartbeat and folding choices of `collect`, checked before the
// child starts: one line naming the flag and what would be right (exit 2).
import type { CorralConfig } from "../../../lib/config/schema.ts";
import type { LineLimits } from "./report.ts";
import { CI_HEARTBEAT_MS } from "./heartbeat.ts";

/**
 * --head-lines and --tail-lines, meant as `head -n` and `tail -n`: a tail
 * limit alone (no --head-lines, no --head-bytes) keeps no head, and a head
 * limit alone (no --tail-lines, no --max-bytes) keeps no tail. Then stdout
 * holds only the lines asked for and the elision marker goes to stderr
 * (`only`), so `| wc -l` counts what was asked.
 */
export function lineLimitFlags(flags: {
  readonly headLines?: number;
  readonly tailLines?: number;
  readonly headBytes?: number;
  readonly maxBytes?: number;
}): LineLimits {
  const tailOnly = flags.tailLines !== undefined && flags.headLines === undefined && flags.headBytes === undefined;
  const headOnly = flags.headLines !== undefined && flags.tailLines === undefined && flags.maxBytes === undefined;
  if (tailOnly) return { headLines: 0, tailLines: flags.tailLines, only: "tail" };
  if (headOnly) return { headLines: flags.headLines, tailLines: 0, only: "head" };
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
