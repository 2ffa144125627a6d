// The one table of commands (tmux's cmd_table): help, completions and the
// application are all built from it. Each entry loads its command's
// definition on demand (issue 9, start-up): `corral run ...` loads the
// definition of run only, and each definition loads its implementation
// lazily in turn; `corral --help`, an unknown command and the completion
// generator load the whole table. The hottest commands also have a bundle of
// their own (cli/hot/, used by the built CLI; test/cli/hot-bundles.test.ts checks
// that they hold these same definitions).
import type { RouteMap } from "@stricli/core";
import type { CorralContext } from "./shared/context.ts";
import { type CommandTarget, routeMapOf } from "./route-map.ts";

/** Top-level command name to its definition, in the order help lists them. */
export const COMMANDS: Readonly<Record<string, () => Promise<CommandTarget>>> = {
  run: async () => (await import("./commands/run/command.ts")).runCommand,
  collect: async () => (await import("./commands/collect/command.ts")).collectCommand,
  pty: async () => (await import("./commands/pty/command.ts")).ptyRoutes,
  jobs: async () => (await import("./commands/jobs/command.ts")).jobsRoutes,
  fg: async () => (await import("./commands/jobs/command.ts")).fgCommand,
  bg: async () => (await import("./commands/jobs/command.ts")).bgCommand,
  reap: async () => (await import("./commands/jobs/command.ts")).reapCommand,
  probe: async () => (await import("./commands/probe/command.ts")).probeCommand,
  agent: async () => (await import("./commands/agent/command.ts")).agentRoutes,
  connect: async () => (await import("./commands/connect/command.ts")).connectCommand,
  completions: async () => (await import("./commands/completions/command.ts")).completionsCommand,
  config: async () => (await import("./commands/config/command.ts")).configCommand,
  mcp: async () => (await import("./commands/mcp/command.ts")).mcpCommand,
};

/**
 * The route map for a command line: only the named command when `first`
 * (the first argument) names one, else the whole table (for `--help`, a
 * mistyped name's suggestions, or no argument at all).
 */
export async function loadRoutes(first?: string): Promise<RouteMap<CorralContext>> {
  const names = first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  const targets = await Promise.all(names.map(async (name) => [name, await (COMMANDS[name] as () => Promise<CommandTarget>)()] as const));
  return routeMapOf(Object.fromEntries(targets));
}
