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
  // handed back. Pinned at 64 KiB (the size of a socket read), every frame buffer and read chunk
  // has a mapping of its own and is returned whole when freed (lib/agent/server/memory-return.ts):
  // twenty unfinished 8 MiB frames, twelve times over, leave the agent 5-13 MiB above its start
  // (at 128 KiB: 16-68 MiB, creeping up), at no cost measured in a flood's time. Other C libraries ignore it.
  // The agent makes no TLS connection, and Node would parse this file at its start (held-node-certs.ts).
  delete own.NODE_EXTRA_CA_CERTS;
  return { MALLOC_MMAP_THRESHOLD_: "65536", ...own };
}
