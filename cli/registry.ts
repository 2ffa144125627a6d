// The one table of commands (tmux's cmd_table): help, completions and the
// application are all built from this route map. Each command group lives in
// its own file and exports its definitions; implementations load lazily so
// that `corral run` never loads PTY or terminal-emulator code.
import { buildRouteMap } from "@stricli/core";
import type { CorralContext } from "./context.ts";
import { runCommand } from "./run.ts";
import { collectCommand } from "./collect.ts";
import { ptyRoutes } from "./pty.ts";
import { jobsRoutes, fgCommand, bgCommand, reapCommand } from "./jobs.ts";
import { probeCommand } from "./probe.ts";
import { agentRoutes } from "./agent.ts";
import { connectCommand } from "./connect.ts";
import { completionsCommand } from "./completions.ts";
import { configCommand } from "./config.ts";

export const rootRoutes = buildRouteMap<string, CorralContext>({
  routes: {
    run: runCommand,
    collect: collectCommand,
    pty: ptyRoutes,
    jobs: jobsRoutes,
    fg: fgCommand,
    bg: bgCommand,
    reap: reapCommand,
    probe: probeCommand,
    agent: agentRoutes,
    connect: connectCommand,
    completions: completionsCommand,
    config: configCommand,
  },
  docs: {
    brief: "Run and supervise processes and terminal sessions: nothing lost, nothing left running.",
  },
});
