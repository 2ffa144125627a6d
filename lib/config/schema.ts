// The effective configuration: built-in defaults, overridden by the YAML
// file ($CORRAL_CONFIG, else $XDG_CONFIG_HOME/corral/config.yaml), then by
// flags. Durations are milliseconds and sizes bytes once loaded.
import { DEFAULT_SCRUB_EXCEPTIONS, DEFAULT_SCRUB_PATTERNS } from "../env/patterns.ts";
import {
  DEFAULT_COLS,
  DEFAULT_GRACE_MS,
  DEFAULT_HEAD_BYTES,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_BYTES,
  DEFAULT_ROWS,
  DEFAULT_TERM,
} from "../core/defaults.ts";

/** Which supervision path `run`/`collect` take (issue: the guardian). */
export type GuardianMode = "auto" | "always" | "never";

/** Every setting a command may take from the config file, in loaded units. */
export interface CorralConfig {
  /** Time between SIGTERM and SIGKILL when a tree is terminated. */
  readonly graceMs: number;
  /** Bytes of each stream's tail that `collect` keeps. */
  readonly maxBytes: number;
  /** Bytes of each stream's head that `collect` keeps. */
  readonly headBytes: number;
  readonly env: {
    /** Name patterns dropped from children's environment. */
    readonly scrub: readonly string[];
    /** Names kept even when a pattern matches. */
    readonly keep: readonly string[];
  };
  readonly guardian: GuardianMode;
  /** Whether `run`/`collect` withhold credential-shaped variables unless told otherwise (--scrub/--no-scrub). */
  readonly scrub: boolean;
  /** Whether corral's own decisions (withheld variables, a timeout, a forced kill) go unsaid on stderr (--quiet). */
  readonly quiet: boolean;
  /**
   * `collect --heartbeat` when the flag is not given: a period in ms, "off",
   * or "auto" (off, but every 5 minutes when $CI is set, as CI systems do).
   */
  readonly heartbeat: number | "auto" | "off";
  readonly terminal: { readonly cols: number; readonly rows: number; readonly term: string };
  readonly agent: {
    readonly idleTimeoutMs: number;
    /**
     * How long a guardian of the agent's sessions and jobs waits for a new
     * agent once its agent is gone (issue 11): ms, or "off" for no bound (as
     * long as its program lives). Past it the guardian ends the tree.
     */
    readonly orphanWaitMs: number | "off";
  };
  /** Names for `--host`: name -> `[user@]machine[:path-to-corral]` (docs/remote.md). */
  readonly hosts: Readonly<Record<string, string>>;
}

/** What corral uses when no config file says otherwise (README, "Configuration and completions"). */
export const DEFAULT_CONFIG: CorralConfig = {
  graceMs: DEFAULT_GRACE_MS,
  maxBytes: DEFAULT_MAX_BYTES,
  headBytes: DEFAULT_HEAD_BYTES,
  env: { scrub: DEFAULT_SCRUB_PATTERNS, keep: DEFAULT_SCRUB_EXCEPTIONS },
  guardian: "auto",
  scrub: true,
  quiet: false,
  heartbeat: "auto",
  terminal: { cols: DEFAULT_COLS, rows: DEFAULT_ROWS, term: DEFAULT_TERM },
  agent: { idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS, orphanWaitMs: "off" },
  hosts: {},
};
