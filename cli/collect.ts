// `corral collect`: run a command with bounded capture of its output (head,
// tail, optional byte-exact spill), printed plain or as one JSON object.
import { buildCommand } from "@stricli/core";
import type { CorralContext } from "./context.ts";
import { commandPositional, type RunFlags, runFlagParameters } from "./run-flags.ts";
import { type CollectJobFlags, collectJobFlagParameters } from "./job-flags.ts";

/** Flags of `collect`: the run flags plus the capture limits and format. */
export interface CollectFlags extends RunFlags, CollectJobFlags {
  readonly maxBytes?: string;
  readonly headBytes?: string;
  readonly spill?: string;
  readonly merge: boolean;
  readonly json: boolean;
}

const text = (input: string): string => input;

export const collectCommand = buildCommand<CollectFlags, readonly string[], CorralContext>({
  loader: async () => (await import("./collect-action.ts")).collectAction,
  parameters: {
    flags: {
      ...runFlagParameters,
      maxBytes: { kind: "parsed", parse: text, optional: true, placeholder: "size", brief: "Bytes of each stream's tail to keep (default 1MiB; e.g. 64k, 10M)" },
      headBytes: { kind: "parsed", parse: text, optional: true, placeholder: "size", brief: "Bytes of each stream's head to keep (default 64KiB)" },
      spill: { kind: "parsed", parse: text, optional: true, placeholder: "file", brief: "Keep the whole output byte-exact in FILE (FILE.stdout, FILE.stderr unless --merge)" },
      merge: { kind: "boolean", default: false, brief: "One stream, as 2>&1: the command's stdout and stderr are the same pipe" },
      json: { kind: "boolean", default: false, brief: "Print one JSON object (argv, exit facts, each stream) on stdout" },
      ...collectJobFlagParameters,
    },
    // No command with --job: the action says what is missing when neither is given.
    positional: { ...commandPositional, minimum: 0 },
  },
  docs: {
    brief: "Run a command, keeping the head and tail of its output (memory stays bounded)",
    fullDescription: [
      "Runs CMD like `corral run` (same flags, same exit status), capturing stdout and stderr.",
      "Per stream it keeps the first --head-bytes and the last --max-bytes; what lies between",
      "is elided, or kept byte-exact in the --spill file. Plain output: the head, one marker line",
      "[corral: N bytes elided; full output in FILE] (or ...; not kept), then the tail, each",
      "stream on corral's own stdout/stderr. Sizes: bytes, k/KiB M/MiB G/GiB (1024), KB MB GB (1000).",
      "--tty runs CMD on a terminal (a PTY in the agent): one stream, the terminal's output.",
      "--job ID prints a job's output from --from (a byte offset) without consuming it; --follow",
      "streams until the job ends and exits with its status. Bytes no longer in memory are read",
      "from the job's spill file, or reported as lost (with the range) when it has none.",
      "",
      "Examples:",
      "  corral collect -- make test",
      "  corral collect --max-bytes 64k --head-bytes 4k --spill build.log -- ./build.sh",
      "  corral collect --merge --json --timeout 10m -- npm test",
      "  corral collect --tty -- ls --color=auto",
      "  corral collect --job %1 --from 0 --follow",
    ].join("\n"),
  },
});
