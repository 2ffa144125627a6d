// PLACEHOLDER: replaced by the issue that builds this command group.
import { buildCommand, buildRouteMap } from "@stricli/core";
import type { CorralContext } from "./context.ts";

export const ptyOpen = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: pty open is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: { brief: "pty open" },
});
export const ptyRoutes = buildRouteMap({ routes: { open: ptyOpen }, docs: { brief: "terminal sessions" } });
