// `corral probe`: what corral can do on this machine and why (the guardian,
// its capabilities, the PTY backend, the agent socket, the state dir).
import { buildCommand } from "@stricli/core";
import type { CorralContext } from "./context.ts";

/** Flags of `corral probe`. */
export interface ProbeFlags {
  readonly json?: boolean;
}

/** The `probe` command definition; the body loads lazily from probe-report.ts. */
export const probeCommand = buildCommand<ProbeFlags, [], CorralContext>({
  loader: async () => (await import("./probe-report.ts")).probeAction,
  parameters: {
    flags: {
      json: { kind: "boolean", optional: true, brief: "Print one JSON object instead of text" },
    },
  },
  docs: {
    brief: "Report what corral can do here: guardian, capabilities, PTY backend, agent, state dir",
    fullDescription: [
      "Checks for real (it starts processes and allocates a PTY) and reports: the runtime and its",
      "version, whether the guardian (native/build/corral-guardian) is built and why not, each",
      "capability the guardian found (/proc, pidfd_open, pidfd_send_signal, pty, subreaper, splice),",
      "which PTY backend sessions get (guardian, else node-pty, else none), whether node-pty loads,",
      "the agent socket and whether an agent answers there, and the state dir's permissions.",
      "Exit status 0 when corral can run a process and allocate a PTY here, 1 otherwise; a missing",
      "optional capability is reported, not fatal.",
      "",
      "Examples:",
      "  corral probe                        # text report",
      "  corral probe --json | jq .pty       # which PTY backend, and whether node-pty loads",
      "  corral probe >/dev/null && echo ok  # can corral work here?",
    ].join("\n"),
  },
});
