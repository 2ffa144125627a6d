// PLACEHOLDER: replaced by the issue that builds this command group.
import { buildCommand, buildRouteMap } from "@stricli/core";
import type { CorralContext } from "./context.ts";

export const agentStart = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: agent start is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: { brief: "agent start" },
});
export const agentRoutes = buildRouteMap({ routes: { start: agentStart }, docs: { brief: "the background agent" } });
