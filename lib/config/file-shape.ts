// The effective config written back in the file's own spelling (kebab-case
// keys, durations and sizes as people type them), so `corral config` output
// can be saved as a config file and loads to the same values.
import { formatDuration } from "../core/duration.ts";
import { formatSize } from "../core/size.ts";
import type { CorralConfig } from "./schema.ts";

/** The config as the YAML file would spell it; key order follows the README. */
export function configToFileShape(config: CorralConfig): Record<string, unknown> {
  return {
    grace: formatDuration(config.graceMs),
    "max-bytes": formatSize(config.maxBytes),
    "head-bytes": formatSize(config.headBytes),
    env: { scrub: [...config.env.scrub], keep: [...config.env.keep] },
    guardian: config.guardian,
    scrub: config.scrub,
    quiet: config.quiet,
    heartbeat: typeof config.heartbeat === "number" ? formatDuration(config.heartbeat) : config.heartbeat,
    terminal: { ...config.terminal },
    agent: {
      "idle-timeout": formatDuration(config.agent.idleTimeoutMs),
      "orphan-wait": typeof config.agent.orphanWaitMs === "number" ? formatDuration(config.agent.orphanWaitMs) : config.agent.orphanWaitMs,
    },
    hosts: { ...config.hosts },
  };
}
