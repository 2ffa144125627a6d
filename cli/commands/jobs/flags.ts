// The flags of `jobs`, `jobs wait`, `fg`, `bg` and `reap`, apart from the
// definitions so the lazily loaded actions import types only.
import type { SocketFlag } from "../../shared/socket-flag.ts";
export type { CorralContext } from "../../shared/context.ts";
export { agentFlags, socketFlag } from "../../shared/socket-flag.ts";
export { parseDurationFlag } from "../../shared/flag-parsers.ts";
export { HELP_DEFAULT } from "../../shared/flag-defaults.ts";

/** `jobs` flags. */
export interface JobsFlags extends SocketFlag {
  readonly json: boolean;
}

/** `jobs wait` flags. */
export interface JobsWaitFlags extends SocketFlag {
  readonly any: boolean;
  /** Milliseconds. */
  readonly timeout?: number;
  readonly json: boolean;
}

/** `reap` flags. */
export interface ReapFlags extends SocketFlag {
  readonly all: boolean;
  readonly grace?: number;
  readonly json: boolean;
}

/** `fg`/`bg` flags. */
export type FgFlags = SocketFlag;
