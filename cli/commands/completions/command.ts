// `corral completions`: shell completion scripts generated from the command
// registry, and the live-id hook those scripts call.
import { buildCommand } from "@stricli/core";
import { type CompletionsFlags, type CorralContext, ID_KINDS, SHELLS } from "./flags.ts";

/** The `completions` command definition; the body loads lazily from cli/commands/completions/impl.ts. */
export const completionsCommand = buildCommand<CompletionsFlags, [string | undefined], CorralContext>({
  loader: async () => (await import("./impl.ts")).completions,
  parameters: {
    flags: {
      ids: {
        kind: "enum",
        values: ID_KINDS,
        optional: true,
        brief: "Print live session or job ids, one a line (what the scripts call; never starts the agent)",
      },
      write: {
        kind: "parsed",
        parse: String,
        optional: true,
        placeholder: "DIR",
        brief: "Write all three scripts into DIR (corral.bash, _corral, corral.fish)",
      },
    },
    positional: {
      kind: "tuple",
      // Checked by the command, not by stricli, so a bad shell is one `corral: ` line like every error.
      parameters: [{ brief: "Shell to print the script for", placeholder: SHELLS.join("|"), parse: String, optional: true }],
    },
  },
  docs: {
    brief: "Print a shell completion script (bash, zsh or fish)",
    fullDescription: [
      "Prints a completion script for bash, zsh or fish, generated from corral's command",
      "definitions: subcommands (also under pty and agent), each command's flags, enum values,",
      "file names for FILE values, and live session and job ids (the scripts run",
      "`corral completions --ids sessions|jobs`, which never starts the agent).",
      "The same scripts are kept in the repository under completions/.",
      "",
      "Examples:",
      "  source <(corral completions bash)                       # bash, this shell only",
      "  corral completions bash > ~/.local/share/bash-completion/completions/corral",
      "  corral completions zsh > \"${fpath[1]}/_corral\"          # zsh, then restart it",
      "  corral completions fish > ~/.config/fish/completions/corral.fish",
      "  corral completions --write completions                  # regenerate the committed scripts",
    ].join("\n"),
  },
});
