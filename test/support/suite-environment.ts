// The environment the suite's test processes get: what this machine's user
// set up for corral must not change an outcome. A config file in
// ~/.config/corral (a `guardian: never`, a short grace), corral's cache in
// ~/.cache/corral, or a CORRAL_* variable in the caller's shell would make
// a test pass or fail by the machine it runs on; the suite runs as on a fresh
// one instead: an empty config home and corral cache dir of its own, no
// other CORRAL_* setting (the harness's own CORRAL_TEST_* are kept). Only
// corral's cache moves: Deno's and Bun's caches stay where they are (an empty
// one would send them to the network).
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
  for (const name of ["config", "cache"]) mkdirSync(path.join(dir, name));
  out.XDG_CONFIG_HOME = path.join(dir, "config");
  out.CORRAL_CACHE_DIR = path.join(dir, "cache");
  return { env: out, dir };
}

export function removeSuiteEnvironment(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
