// `corral pty exec`: the definition only (its action loads lazily from
// exec.ts). Kept out of command.ts, which holds the other pty commands.
import { buildCommand } from "@stricli/core";
import type { CorralContext, ExecFlags } from "../flags.ts";
import { parseDurationFlag, agentFlags } from "../flags.ts";
import { parseKeptSizeFlag, parseLineCountFlag } from "../../../shared/flag-parsers.ts";
import { HELP_DEFAULT } from "../flags.ts";

const text = (input: string): string => input;
const opt = { kind: "parsed", parse: text, optional: true } as const;

export const ptyExec = buildCommand<ExecFlags, [string, ...string[]], CorralContext>({
  loader: async () => (await import("./impl.ts")).ptyExecAction,
  parameters: {
    flags: {
      timeout: { ...opt, parse: parseDurationFlag("--timeout"), placeholder: "dur", brief: `Give up after this long: exit 124, the command left running (default ${HELP_DEFAULT.waitTimeout})` },
      interrupt: { kind: "boolean", default: false, brief: "On timeout, send Ctrl-C and wait --grace for the prompt (still exit 124)" },
      grace: { ...opt, parse: parseDurationFlag("--grace"), placeholder: "dur", brief: `With --interrupt: time after Ctrl-C (default ${HELP_DEFAULT.interruptGrace})` },
      maxBytes: { ...opt, parse: parseKeptSizeFlag("--max-bytes"), placeholder: "size", brief: `Bytes of the output's tail to keep (default ${HELP_DEFAULT.maxBytes})` },
      headBytes: { ...opt, parse: parseKeptSizeFlag("--head-bytes"), placeholder: "size", brief: `Bytes of the output's head to keep (default ${HELP_DEFAULT.headBytes})` },
      headLines: { ...opt, parse: parseLineCountFlag("--head-lines"), placeholder: "n", brief: "Show at most N lines of the head" },
      tailLines: { ...opt, parse: parseLineCountFlag("--tail-lines"), placeholder: "n", brief: "Show at most N lines of the tail" },
      spill: { ...opt, placeholder: "file", brief: "Keep the whole output byte-exact in FILE" },
      json: { kind: "boolean", default: false, brief: "Print {output, status, signal, cwd, durationMs, from, to, truncated, ...} as JSON" },
      ...agentFlags,
    },
    positional: {
      kind: "array",
      parameter: { brief: "The session, then the command line (after --; words are joined with spaces)", parse: text, placeholder: "session command" },
      minimum: 2,
    },
  },
  docs: {
    brief: "Run one command line in a session's shell; print its output, exit with its status",
    fullDescription: [
      "Types the command line into the session's shell (bash, zsh, fish or sh opened by pty open,",
      "which hooks them unless --no-shell-integration), waits for it to finish, prints the",
      "command's own output (not its echo, not the prompt; line ends as LF) and exits with its",
      "status (128+N when signal N killed it). cd, exported variables and the like carry over to",
      "the next exec, as in the shell. The output is bounded like collect: --head-bytes,",
      "--max-bytes, --head-lines, --tail-lines, one [corral: ...] line where some was elided,",
      "--spill FILE for all of it. A line of several lines runs as one command group.",
      "Exit status: the command's; 124 --timeout passed (the command is left running unless",
      "--interrupt); 1 the session has no shell integration, its shell is busy (a command, a",
      "continuation prompt, typed text) or found the command incomplete, or it exited; 2 a bad flag.",
      "",
      "Examples:",
      "  s=$(corral pty open -- bash)",
      "  corral pty exec \"$s\" -- cd /tmp/project",
      "  corral pty exec \"$s\" --timeout 10m --tail-lines 50 --spill test.log -- npm test",
      "  corral pty exec \"$s\" --json -- git status --short | jq -r .output",
    ].join("\n"),
  },
});
