// The agent's own environment. It outlives the command that started it, so
// it must not carry that caller's credentials around: credential-shaped
// names (DESIGN.md 4.7) are dropped. corral's own CORRAL_* settings stay,
// since they configure the agent. Sessions never see this environment: each
// `open` carries its caller's (scrubbed) one.
import { DEFAULT_SCRUB_EXCEPTIONS, DEFAULT_SCRUB_PATTERNS } from "../../env/patterns.ts";
import { buildChildEnv } from "../../env/child-env.ts";

/** The caller's environment minus credential-shaped names, for the agent process. */
export function agentEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const own = buildChildEnv({
    base: env,
    scrubPatterns: DEFAULT_SCRUB_PATTERNS.filter((p) => p !== "CORRAL_*"),
    keepPatterns: DEFAULT_SCRUB_EXCEPTIONS,
  }).env;
  // glibc raises its mmap threshold to the size of each mapped block freed (up to 32 MiB): after
  // the first 8 MiB request frame is let go, later ones land in the heap and their pages are never
  // handed back. Pinned at glibc's own default (128 KiB), every large buffer keeps a mapping of its
  // own and is returned whole when freed (lib/agent/server/memory-return.ts). Other C libraries ignore it.
  return { MALLOC_MMAP_THRESHOLD_: "131072", ...own };
}
