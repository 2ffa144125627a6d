// `corral pty open`'s definition: the longest of the pty commands (the
// program, its terminal, its environment, the recording, the waits that let
// the first send never race the program's start, shell integration), so it
// has a folder of its own (impl.ts beside it loads lazily).
import { buildCommand } from "@stricli/core";
import type { CorralContext, OpenFlags } from "../flags.ts";
import { parseDurationFlag, parseIntFlag, recordFlagDefs, agentFlags } from "../flags.ts";
import { HELP_DEFAULT, MAX_SCROLLBACK } from "../flags.ts";

const text = (input: string): string => input;
const opt = { kind: "parsed", parse: text, optional: true } as const;

export const ptyOpen = buildCommand<OpenFlags, readonly string[], CorralContext>({
  loader: async () => (await import("./impl.ts")).ptyOpenAction,
  parameters: {
    flags: {
      name: { ...opt, placeholder: "name", brief: "A name to use instead of the id (letters, digits, . _ -)" },
      cols: { ...opt, parse: parseIntFlag("--cols", 1, 1000), placeholder: "n", brief: `Columns (1-1000; default ${HELP_DEFAULT.cols} or terminal.cols)` },
      rows: { ...opt, parse: parseIntFlag("--rows", 1, 1000), placeholder: "n", brief: `Rows (1-1000; default ${HELP_DEFAULT.rows} or terminal.rows)` },
      cwd: { ...opt, placeholder: "dir", brief: "Working directory (default: the current one)" },
      env: { ...opt, variadic: true, placeholder: "name=value", brief: "Set a variable for the program (repeatable)" },
      term: { ...opt, placeholder: "term", brief: "TERM for the program (default xterm-256color)" },
      scrollback: { ...opt, parse: parseIntFlag("--scrollback", 0, MAX_SCROLLBACK), placeholder: "n", brief: `Lines kept above the screen (default ${HELP_DEFAULT.scrollback}, at most ${HELP_DEFAULT.maxScrollback})` },
      waitText: { ...opt, variadic: true, placeholder: "str", brief: "Return once the program's output shows this text (repeatable), so a first send never races its start" },
      waitRegex: { ...opt, variadic: true, placeholder: "re", brief: "Return once an RE2 regex matches the program's output (repeatable)" },
      waitStable: { ...opt, parse: parseDurationFlag("--wait-stable"), placeholder: "dur", brief: "Return once the screen has not changed for this long" },
      waitReady: { kind: "boolean", default: false, brief: "Return once the program waits for input (blocked reading the terminal)" },
      timeout: { ...opt, parse: parseDurationFlag("--timeout"), placeholder: "dur", brief: `Give up the --wait-* after this long: exit 124, the session stays open (default ${HELP_DEFAULT.waitTimeout})` },
      quiet: { kind: "boolean", optional: true, brief: "Do not name the withheld credential-shaped variables on stderr (config key quiet)" },
      json: { kind: "boolean", default: false, brief: "Print {session: {id, name, pid, argv, size, position, ...}, wait} as JSON" },
      shellIntegration: { kind: "boolean", default: true, brief: "Hook bash, zsh, fish or sh for pty exec (--no-shell-integration leaves the shell untouched)" },
      ...recordFlagDefs,
      ...agentFlags,
    },
    positional: {
      kind: "array",
      parameter: { brief: "The program and its arguments (after --)", parse: text, placeholder: "command" },
      minimum: 1,
    },
  },
  docs: {
    brief: "Open a terminal session running a program; print its id",
    fullDescription: [
      "Starts CMD on a new pseudo-terminal held by the agent (started on demand) and",
      "prints the session id on the first line. The program gets your environment minus",
      "credential-shaped variables (*TOKEN*, *SECRET*, AWS_*, ...), plus --env. bash, zsh, fish",
      "and sh started with no arguments (or -i) are hooked for pty exec: their prompts print",
      "marks corral reads and removes; --no-shell-integration leaves the shell untouched.",
      "Exit status: 0; 127 command not found; 126 not executable; 2 bad value; 1 name held by a",
      "running session (an exited session's name is taken over; the old one stays readable by id).",
      "",
      "Examples:",
      "  corral pty open -- bash",
      "  corral pty open --name py --wait-ready -- python3   # returns once python3 reads its first line",
      "  corral pty open --name editor --cols 100 --rows 30 -- vim -u NONE notes.txt",
      "  id=$(corral pty open --env LANG=C.UTF-8 -- python3)",
      "  corral pty open --record vim.cast --record-max 10M -- vim notes.txt",
    ].join("\n"),
  },
});

