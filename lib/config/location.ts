// Where the config file lives: $CORRAL_CONFIG when set, else the XDG base
// directory spec's $XDG_CONFIG_HOME (ignored when relative, as the spec says),
// else ~/.config.
import os from "node:os";
import path from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

/** The file corral reads, and whether the user named it (then it must exist). */
export interface ConfigLocation {
  readonly path: string;
  /** True when $CORRAL_CONFIG named the file: a missing file is an error. */
  readonly explicit: boolean;
}

/** Resolves the config file path from the environment alone (no I/O). */
export function configLocation(env: Env): ConfigLocation {
  const named = env.CORRAL_CONFIG;
  if (named !== undefined && named !== "") return { path: path.resolve(named), explicit: true };
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && path.isAbsolute(xdg)
    ? xdg
    : path.join(env.HOME !== undefined && env.HOME !== "" ? env.HOME : os.homedir(), ".config");
  return { path: path.join(base, "corral", "config.yaml"), explicit: false };
}
