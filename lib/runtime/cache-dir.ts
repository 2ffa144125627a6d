// Where corral keeps what it builds for one user (the guardian when npm did
// not build it, the code cache of the hot bundles): a per-user directory,
// never shared, so nothing in it can be planted by another account.
import { homedir } from "node:os";
import path from "node:path";
import process from "node:process";

type Env = Readonly<Record<string, string | undefined>>;

/** `$CORRAL_CACHE_DIR`, else `$XDG_CACHE_HOME/corral`, else `~/.cache/corral`. */
export function corralCacheDir(env: Env = process.env): string {
  if (env.CORRAL_CACHE_DIR) return path.resolve(env.CORRAL_CACHE_DIR);
  if (env.XDG_CACHE_HOME) return path.join(path.resolve(env.XDG_CACHE_HOME), "corral");
  return path.join(homedir(), ".cache", "corral");
}
