// PLACEHOLDER: replaced by the issue that builds this command group.
import { buildCommand } from "@stricli/core";
import type { CorralContext } from "./context.ts";

export const collectCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: collect is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: { brief: "collect" },
});
