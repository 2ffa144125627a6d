// PLACEHOLDER: replaced by the issue that builds this command group.
import { buildCommand } from "@stricli/core";
import type { CorralContext } from "./context.ts";

export const jobsCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: jobs is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: { brief: "jobs" },
});
export const fgCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: fg is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: { brief: "fg" },
});
export const bgCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: bg is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: { brief: "bg" },
});
export const reapCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: reap is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: { brief: "reap" },
});
