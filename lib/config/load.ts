// Loading the effective configuration (DEFAULT_CONFIG overridden by the
// YAML file). Cheap when there is no file: one failed read, and the `yaml`
// parser is imported only when a file exists, because `corral run` start-up
// time matters.
import { readFileSync } from "node:fs";
import { ConfigError } from "./config-error.ts";
import { configLocation } from "./location.ts";
import { type CorralConfig, DEFAULT_CONFIG } from "./schema.ts";

// Re-exported so callers (run, collect, pty, agent) import config from one place.
export { ConfigError } from "./config-error.ts";
export { configLocation, type ConfigLocation } from "./location.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** The effective configuration and where it came from. */
export interface LoadedConfig {
  readonly config: CorralConfig;
  /** The file read, or null when there was none (built-in defaults). */
  readonly file: string | null;
  /** The path corral looked at (what `corral config --path` prints). */
  readonly path: string;
}

/** Loads the config and reports which file it came from (for `corral config`). */
export async function loadConfigFile(env: Env): Promise<LoadedConfig> {
  const where = configLocation(env);
  let text: string;
  try {
    // Synchronous: one failed open when there is no file, where the
    // promise API would cost Node's fs/promises modules (eight internal
    // modules to compile) and a trip through the thread pool on every start.
    text = readFileSync(where.path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !where.explicit) return { config: DEFAULT_CONFIG, file: null, path: where.path };
    const problem = code === "ENOENT"
      ? "does not exist (named by $CORRAL_CONFIG); create it or unset CORRAL_CONFIG"
      : code === "EISDIR"
      ? "is a directory; point $CORRAL_CONFIG at a YAML file"
      : `cannot be read (${code ?? String(error)}); fix its permissions or unset CORRAL_CONFIG`;
    throw new ConfigError(where.path, undefined, undefined, problem);
  }
  const { configFromYaml } = await import("./from-yaml.ts");
  return { config: configFromYaml(text, where.path), file: where.path, path: where.path };
}

/**
 * The effective configuration for a command: built-in defaults overridden by
 * the file. Throws ConfigError (exit 2) for a bad or missing-but-named file.
 */
export async function loadConfig(env: Env): Promise<CorralConfig> {
  return (await loadConfigFile(env)).config;
}
