// The environment the suite's test processes get: what this machine's user
// set up for corral must not change an outcome. Corral's cache in
// ~/.cache/corral (a guardian built from other sources, stale code caches)
// or a CORRAL_* variable in the caller's shell (CORRAL_GUARDIAN=never,
// CORRAL_STATE_DIR) would make a test pass or fail by the machine it runs on;
// the suite gets a corral cache dir of its own and no CORRAL_* setting (the
// harness's own CORRAL_TEST_* are kept). Only corral's cache moves: Deno's and
// Bun's caches stay (an empty one would send them to the network). The config
// home is left alone, since shells and tools read it too (a fish test's
// startup file): a user's ~/.config/corral/config.yaml still applies, and
// the tests whose outcome a setting decides name their own (CORRAL_CONFIG
// or XDG_CONFIG_HOME).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** A copy of `env` for the suite, and the dir to remove once it is done. */
export function suiteEnvironment(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "corral-suite-home-"));
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith("CORRAL_") && !key.startsWith("CORRAL_TEST_")) continue;
    out[key] = value;
  }
  mkdirSync(path.join(dir, "cache"));
  out.CORRAL_CACHE_DIR = path.join(dir, "cache");
  return { env: out, dir };
}

export function removeSuiteEnvironment(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
