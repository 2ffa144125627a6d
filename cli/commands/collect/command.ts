// `corral collect`: run a command with bounded capture of its output (head,
// tail, optional byte-exact spill), printed plain or as one JSON object.
import { buildCommand } from "@stricli/core";
import {
  type CollectFlags,
  collectJobFlagParameters,
  commandPositional,
  type CorralContext,
  parseDurationOrOffFlag,
  parseLineCountFlag,
  parseKeptSizeFlag,
  runFlagParameters,
} from "./flags.ts";
import { HELP_DEFAULT } from "./flags.ts";

const text = (input: string): string => input;

export const collectCommand = buildCommand<CollectFlags, readonly string[], CorralContext>({
  loader: async () => (await import("./impl.ts")).collectAction,
  parameters: {
    flags: {
      ...runFlagParameters,
      maxBytes: { kind: "parsed", parse: parseKeptSizeFlag("--max-bytes"), optional: true, placeholder: "size", brief: `Bytes of each stream's tail to keep (default ${HELP_DEFAULT.maxBytes}; e.g. 64k, 10M)` },
      headBytes: { kind: "parsed", parse: parseKeptSizeFlag("--head-bytes"), optional: true, placeholder: "size", brief: `Bytes of each stream's head to keep (default ${HELP_DEFAULT.headBytes})` },
      headLines: { kind: "parsed", parse: parseLineCountFlag("--head-lines"), optional: true, placeholder: "n", brief: "Show the first N lines, as head -n (alone: no tail; with --head-bytes the smaller wins)" },
      tailLines: { kind: "parsed", parse: parseLineCountFlag("--tail-lines"), optional: true, placeholder: "n", brief: "Show the last N lines, as tail -n (alone: no head; with --max-bytes the smaller wins)" },
      live: { kind: "boolean", default: false, brief: "Also stream the output through as it comes (tee); the report then goes to stderr" },
      heartbeat: { kind: "parsed", parse: parseDurationOrOffFlag("--heartbeat"), optional: true, placeholder: "dur", brief: "A progress line on stderr every DUR (--live: after DUR of silence); off (default; 5m when $CI is set)" },
      group: { kind: "parsed", parse: text, optional: true, placeholder: "title", brief: "Fold the output under TITLE in the CI log (GitHub Actions, GitLab), else print a title line" },
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
      "--head-lines/--tail-lines limit by lines too (the smaller limit wins); a byte limit that cuts",
      "a line moves to the line boundary when one lies within 4 KiB, so the tail starts on a line.",
      "The marker counts lines and bytes elided and names the limit that cut. --tail-lines alone",
      "(no --head-lines, no --head-bytes) keeps no head, as tail -n; --head-lines alone no tail;",
      "the note then goes to stderr, so stdout holds only those lines. --live also streams",
      "the output through as it comes (byte-exact; the report then goes to stderr). --heartbeat DUR",
      "prints elapsed time, bytes, lines and the last line to stderr every DUR (config heartbeat;",
      "5m when $CI is set; off turns it off). --group TITLE folds it all in a GitHub Actions",
      "(GITHUB_ACTIONS=true) or GitLab (GITLAB_CI) log, else prints a title line.",
      "--job ID prints a job's output from --from (a byte offset) without consuming it; --follow",
      "streams until the job ends and exits with its status. Bytes no longer in memory are read",
      "from the job's spill file, or reported as lost (with the range) when it has none.",
      "--job ID --tail-lines N starts N lines from the end of what the job wrote.",
      "",
      "Examples:",
      "  corral collect -- make test",
      "  corral collect --max-bytes 64k --head-bytes 4k --spill build.log -- ./build.sh",
      "  corral collect --merge --json --timeout 10m -- npm test",
      "  corral collect --live --merge --spill test.log --group tests --heartbeat 1m -- npm test",
      "  corral collect --head-lines 20 --tail-lines 50 -- make",
      "  corral collect --tty -- ls --color=auto",
      "  corral collect --job %1 --from 0 --follow",
    ].join("\n"),
  },
});
