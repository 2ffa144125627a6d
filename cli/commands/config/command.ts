// `corral config`: shows the effective configuration and where it came from.
import { buildCommand } from "@stricli/core";
import type { CorralContext, ConfigFlags } from "./flags.ts";

/** The `config` command definition; the body loads lazily from cli/commands/config/impl.ts. */
export const configCommand = buildCommand<ConfigFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).printConfig,
  parameters: {
    flags: {
      json: { kind: "boolean", optional: true, brief: "Print JSON: durations in ms, sizes in bytes, plus the file" },
      path: { kind: "boolean", optional: true, brief: "Print only the config file path corral reads (existing or not)" },
    },
  },
  docs: {
    brief: "Print the effective configuration (defaults overridden by the config file)",
    fullDescription: [
      "Prints the configuration corral uses: built-in defaults overridden by the YAML file at",
      "$CORRAL_CONFIG, else $XDG_CONFIG_HOME/corral/config.yaml (default ~/.config/corral/config.yaml).",
      "The YAML output can be saved as a config file; its first line names the file it came from.",
      "A bad config file is reported on one line (file:line: key: problem) with exit status 2.",
      "",
      "Examples:",
      "  corral config                      # effective config as YAML",
      "  corral config --json               # {\"file\":...,\"config\":{\"graceMs\":5000,...}}",
      "  $EDITOR \"$(corral config --path)\"  # edit the config file",
    ].join("\n"),
  },
});
