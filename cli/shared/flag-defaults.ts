// The defaults a flag's help states, spelled from lib/core/defaults.ts with
// the same formatters the config printer uses, so `--help`, the generated
// reference and the completions say what the CLI and the agent really do,
// and a changed default changes every text that names it.
import {
  DEFAULT_COLS,
  DEFAULT_GRACE_MS,
  DEFAULT_HEAD_BYTES,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_INTERRUPT_GRACE_MS,
  DEFAULT_MAX_BYTES,
  DEFAULT_ROWS,
  DEFAULT_SCROLLBACK,
  DEFAULT_WAIT_TIMEOUT_MS,
  MAX_SCROLLBACK,
} from "../../lib/core/defaults.ts";
import { formatDuration } from "../../lib/core/duration.ts";
import { formatSize } from "../../lib/core/size.ts";

export { MAX_SCROLLBACK };

/** Each default as help text writes it: `5s`, `1m`, `1MiB`, `80`. */
export const HELP_DEFAULT = {
  grace: formatDuration(DEFAULT_GRACE_MS),
  interruptGrace: formatDuration(DEFAULT_INTERRUPT_GRACE_MS),
  waitTimeout: formatDuration(DEFAULT_WAIT_TIMEOUT_MS),
  idleTimeout: formatDuration(DEFAULT_IDLE_TIMEOUT_MS),
  maxBytes: formatSize(DEFAULT_MAX_BYTES),
  headBytes: formatSize(DEFAULT_HEAD_BYTES),
  cols: String(DEFAULT_COLS),
  rows: String(DEFAULT_ROWS),
  scrollback: String(DEFAULT_SCROLLBACK),
  maxScrollback: String(MAX_SCROLLBACK),
} as const;
