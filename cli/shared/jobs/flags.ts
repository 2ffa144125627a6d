// The job flags `run` and `collect` gain (issue 5). Values stay strings until the lazily loaded
// action checks them (one line naming the flag, exit 2).
import type { TypedFlagParameter } from "@stricli/core";
import type { CorralContext } from "../context.ts";
import { agentFlags, type SocketFlag } from "../socket-flag.ts";
import { recordFlagDefs, type RecordFlagValues } from "../record/flags.ts";
import { parseOffsetFlag, parseKeptSizeFlag } from "../flag-parsers.ts";
import { HELP_DEFAULT } from "../flag-defaults.ts";

const text = (input: string): string => input;

type FlagTable<T> = { readonly [K in keyof T]-?: TypedFlagParameter<T[K], CorralContext> };

/** What `run` adds: a job in the agent instead of a child of this process. */
export interface RunJobFlags extends SocketFlag, RecordFlagValues {
  readonly tty: boolean;
  readonly bg: boolean;
  readonly name?: string;
  readonly maxBytes?: number;
  readonly headBytes?: number;
  readonly spill?: string;
}

/** Flag definitions for RunJobFlags, spread into `run`'s parameters. */
export const runJobFlagParameters: FlagTable<RunJobFlags> = {
  tty: { kind: "boolean", default: false, brief: "Run on a terminal held by the agent: a job; Ctrl-Z parks it (exit 148), fg resumes it" },
  bg: { kind: "boolean", default: false, brief: "Start as a background job in the agent; print its id (%N) at once" },
  name: { kind: "parsed", parse: text, optional: true, placeholder: "name", brief: "A name for the job (--bg/--tty), usable where a job id is" },
  maxBytes: { kind: "parsed", parse: parseKeptSizeFlag("--max-bytes"), optional: true, placeholder: "size", brief: `Job output: bytes of tail kept in memory (default ${HELP_DEFAULT.maxBytes})` },
  headBytes: { kind: "parsed", parse: parseKeptSizeFlag("--head-bytes"), optional: true, placeholder: "size", brief: `Job output: bytes of head kept in memory (default ${HELP_DEFAULT.headBytes})` },
  spill: { kind: "parsed", parse: text, optional: true, placeholder: "file", brief: "Job output: keep all of it byte-exact in FILE" },
  ...recordFlagDefs,
  ...agentFlags,
};

/** What `collect` adds: read a job's output, or capture a command on a terminal. */
export interface CollectJobFlags extends SocketFlag {
  readonly tty: boolean;
  readonly job?: string;
  readonly from?: number;
  readonly follow: boolean;
}

/** Flag definitions for CollectJobFlags, spread into `collect`'s parameters. */
export const collectJobFlagParameters: FlagTable<CollectJobFlags> = {
  tty: { kind: "boolean", default: false, brief: "Give the command a terminal (a PTY in the agent); its output is one stream" },
  job: { kind: "parsed", parse: text, optional: true, placeholder: "job", brief: "Read a job's output instead of running a command (%N, N, %+, %-, a name)" },
  from: { kind: "parsed", parse: parseOffsetFlag("--from"), optional: true, placeholder: "offset", brief: "With --job: start at this byte offset (default 0); reading never consumes" },
  follow: { kind: "boolean", default: false, brief: "With --job: keep streaming until the job ends, then exit with its status" },
  ...agentFlags,
};
