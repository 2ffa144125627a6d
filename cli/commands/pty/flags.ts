// Parsed flag shapes of the `pty` commands, kept apart from the definitions
// so the lazily loaded actions import types only. Numbers and durations are
// parsed by the shared flag parsers; other values stay strings until
// the action checks them (one-line messages, exit 2).
import type { SocketFlag } from "../../shared/socket-flag.ts";
export type { CorralContext } from "../../shared/context.ts";
export { agentFlags, socketFlag } from "../../shared/socket-flag.ts";
export { recordFlagDefs } from "../../shared/record/flags.ts";
export { parseClampedDimensionFlag, parseDurationFlag, parseIntFlag, parseSizeFlag } from "../../shared/flag-parsers.ts";
export { HELP_DEFAULT, MAX_SCROLLBACK } from "../../shared/flag-defaults.ts";
export { MIN_RECORD_BYTES } from "../../../lib/core/recording-spec.ts";

export type SocketOnly = SocketFlag;

export interface ResizeFlags extends SocketFlag {
  readonly cols?: number;
  readonly rows?: number;
  readonly json: boolean;
}

export interface OpenFlags extends SocketFlag {
  readonly name?: string;
  readonly cols?: number;
  readonly rows?: number;
  readonly cwd?: string;
  readonly env?: readonly string[];
  readonly term?: string;
  readonly scrollback?: number;
  readonly json: boolean;
  readonly record?: string;
  readonly recordMax?: number;
  readonly recordInput: boolean;
  readonly waitText?: readonly string[];
  readonly waitRegex?: readonly string[];
  readonly waitStable?: number;
  readonly waitReady: boolean;
  readonly timeout?: number;
  readonly quiet?: boolean;
  readonly shellIntegration: boolean;
}

export interface SendFlags extends SocketFlag {
  readonly key?: readonly string[];
  readonly stdin: boolean;
  readonly json: boolean;
  readonly waitText?: readonly string[];
  readonly waitRegex?: readonly string[];
  readonly waitStable?: number;
  readonly waitReady: boolean;
  readonly timeout?: number;
}

export interface ScreenFlags extends SocketFlag {
  readonly json: boolean;
  readonly since?: string;
  readonly scrollback?: number;
  readonly ansi: boolean;
  readonly styles: boolean;
  readonly svg?: string;
  readonly html?: string;
}

export interface RecordFlags extends SocketFlag {
  readonly max?: number;
  readonly input: boolean;
  readonly stop: boolean;
  readonly json: boolean;
}

export interface ViewFlags extends SocketFlag {
  readonly port?: number;
  readonly listen?: string;
}

export interface WaitFlags extends SocketFlag {
  readonly text?: readonly string[];
  readonly regex?: readonly string[];
  readonly stable?: number;
  readonly ready: boolean;
  readonly exit: boolean;
  readonly after?: number;
  readonly new: boolean;
  readonly timeout?: number;
  readonly json: boolean;
  readonly commandDone: boolean;
}

export interface ExecFlags extends SocketFlag {
  readonly timeout?: number;
  readonly interrupt: boolean;
  readonly grace?: number;
  readonly maxBytes?: number;
  readonly headBytes?: number;
  readonly headLines?: number;
  readonly tailLines?: number;
  readonly spill?: string;
  readonly json: boolean;
}

export interface CloseFlags extends SocketFlag {
  readonly grace?: number;
  readonly force: boolean;
  readonly json: boolean;
}

export interface ListFlags extends SocketFlag {
  readonly json: boolean;
}
