// The flags of `corral collect`: the child flags it shares with `run`, the
// job flags (--tty, --job), and its capture limits and format.
export type { CorralContext } from "../../shared/context.ts";
import { commandPositional, type RunFlags, runFlagParameters } from "../../shared/child/flags.ts";
import { type CollectJobFlags, collectJobFlagParameters } from "../../shared/jobs/flags.ts";
export { collectJobFlagParameters, commandPositional, runFlagParameters };
export { parseDurationOrOffFlag, parseLineCountFlag, parseKeptSizeFlag } from "../../shared/flag-parsers.ts";
export { HELP_DEFAULT } from "../../shared/flag-defaults.ts";

/** Flags of `collect`: the run flags plus the capture limits and format. */
export interface CollectFlags extends RunFlags, CollectJobFlags {
  readonly maxBytes?: number;
  readonly headBytes?: number;
  readonly spill?: string;
  readonly merge: boolean;
  readonly json: boolean;
  readonly headLines?: number;
  readonly tailLines?: number;
  readonly live: boolean;
  /** Milliseconds; 0 for `off`. */
  readonly heartbeat?: number;
  readonly group?: string;
}
