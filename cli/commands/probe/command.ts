// `corral probe`: what corral can do on this machine and why (the guardian,
// its capabilities, the PTY backend, the agent socket, the state dir).
import { buildCommand } from "@stricli/core";
import type { CorralContext, ProbeFlags } from "./flags.ts";

/** The `probe` command definition; the body loads lazily from cli/commands/probe/impl.ts. */
export const probeCommand = buildCommand<ProbeFlags, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).probeAction,
  parameters: {
    flags: {
      json: { kind: "boolean", optional: true, brief: "Print one JSON object instead of text" },
      build: { kind: "boolean", optional: true, brief: "Build the guardian first if it is not built (into the package, else the per-user cache)" },
    },
  },
  docs: {
    brief: "Report what corral can do here: guardian, capabilities, PTY backend, agent, state dir",
    fullDescription: [
      "Checks for real (it starts processes and allocates a PTY) and reports: the runtime and its",
      "version, whether the guardian is built (native/build/corral-guardian in the package, else",
      "~/.cache/corral/guardian-HASH/) and why not, each",
      "capability the guardian found (/proc, pidfd_open, pidfd_send_signal, pty, subreaper, splice),",
      "which PTY backend sessions get (guardian, else node-pty, else none), whether node-pty loads,",
      "the agent socket and whether an agent answers there, and the state dir's permissions.",
      "Exit status 0 when the guardian is in use and a PTY can be allocated; 3 when corral works on",
      "its fallbacks (degraded: the guarantees lost are listed, with the absolute command that builds",
      "the guardian); 1 when no process can run here. A missing optional capability is reported, not fatal.",
      "--build compiles the guardian first (needs a C compiler): what npm's install script does.",
      "",
      "Examples:",
      "  corral probe                        # text report",
      "  corral probe --json | jq .pty       # which PTY backend, and whether node-pty loads",
      "  corral probe >/dev/null && echo ok  # full guarantees here?",
      "  corral probe --build                # build the guardian now, then report",
    ].join("\n"),
  },
});
