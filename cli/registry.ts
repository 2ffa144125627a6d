// The one table of commands (tmux's cmd_table): help, completions and the
// application are all built from this route map. Each command group lives in
// its own file and exports its definitions; implementations load lazily so
// that `corral run` never loads PTY or terminal-emulator code.
import { buildRouteMap } from "@stricli/core";
import type { CorralContext } from "./context.ts";
import { runCommand } from "./commands/run/command.ts";
import { collectCommand } from "./commands/collect/command.ts";
import { ptyRoutes } from "./commands/pty/command.ts";
import { jobsRoutes, fgCommand, bgCommand, reapCommand } from "./commands/jobs/command.ts";
import { probeCommand } from "./commands/probe/command.ts";
import { agentRoutes } from "./agent.ts";
import { connectCommand } from "./commands/connect/command.ts";
import { completionsCommand } from "./commands/completions/command.ts";
import { configCommand } from "./commands/config/command.ts";

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
