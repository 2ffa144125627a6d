// The agent's own environment. It outlives the command that started it, so
// it must not carry that caller's credentials around: credential-shaped
// names (DESIGN.md 4.7) are dropped. corral's own CORRAL_* settings stay,
// since they configure the agent. Sessions never see this environment: each
// `open` carries its caller's (scrubbed) one.
import { DEFAULT_SCRUB_EXCEPTIONS, DEFAULT_SCRUB_PATTERNS } from "../../env/patterns.ts";
import { buildChildEnv } from "../../env/child-env.ts";

/** The caller's environment minus credential-shaped names, for the agent process. */
export function agentEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return buildChildEnv({
    base: env,
    scrubPatterns: DEFAULT_SCRUB_PATTERNS.filter((p) => p !== "CORRAL_*"),
    keepPatterns: DEFAULT_SCRUB_EXCEPTIONS,
  }).env;
}
