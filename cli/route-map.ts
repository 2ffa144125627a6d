// The root route map over some of corral's commands: all of them (the
// registry, for help, suggestions and completions) or only the one being run
// (the registry's lazy path, and the one-command bundles of cli/hot/).
// Apart from the registry so that a one-command bundle does not pull in the
// registry's imports of every other command.
import { buildRouteMap, type RouteMap } from "@stricli/core";
import type { CorralContext } from "./shared/context.ts";

/** A top-level command's definition: a command or a group of subcommands. */
export type CommandTarget = Parameters<typeof buildRouteMap<string, CorralContext>>[0]["routes"][string];

const BRIEF = "Run and supervise processes and terminal sessions: nothing lost, nothing left running.";
const DESCRIPTION = [
  BRIEF,
  "Every command answers --help with examples; the man page corral-COMMAND(1) says the same.",
  "",
  "Examples:",
  "  corral run --timeout 30s -- make test",
  "  corral collect --head-lines 20 --tail-lines 100 --spill build.log -- npm test",
  "  corral pty open --name py -- python3",
  "  corral run --bg --name build -- make",
  "  corral probe",
].join("\n");

/** The root route map over `targets` (name to definition, in the order help lists them). */
export function routeMapOf(targets: Readonly<Record<string, CommandTarget>>): RouteMap<CorralContext> {
  return buildRouteMap<string, CorralContext>({ routes: { ...targets }, docs: { brief: BRIEF, fullDescription: DESCRIPTION } });
}
