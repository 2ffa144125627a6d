// PLACEHOLDER: replaced by the issue that builds this command group.
import { buildCommand } from "@stricli/core";
import type { CorralContext } from "./context.ts";

export const jobsCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: jobs is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: {
    brief: "List jobs: %N id, state, pid, command, exit facts when done",
    fullDescription: "List jobs: %N id, state, pid, command, exit facts when done (not built yet).\n\nExamples:\n  corral jobs\n  corral jobs --json",
  },
});
export const fgCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: fg is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: {
    brief: "Bring a stopped or background job to the foreground",
    fullDescription: "Bring a stopped or background job to the foreground (not built yet).\n\nExamples:\n  corral fg\n  corral fg %2",
  },
});
export const bgCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: bg is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: {
    brief: "Continue a stopped job in the background",
    fullDescription: "Continue a stopped job in the background (not built yet).\n\nExamples:\n  corral bg\n  corral bg %1",
  },
});
export const reapCommand = buildCommand<object, [], CorralContext>({
  loader: () => Promise.resolve(function (this: CorralContext) {
    this.process.stderr.write("corral: reap is not built yet\n");
    this.process.exitCode = 125;
  }),
  parameters: { flags: {} },
  docs: {
    brief: "Retire finished jobs and sessions; --all terminates what is still running",
    fullDescription: "Retire finished jobs and sessions; --all terminates what is still running (not built yet).\n\nExamples:\n  corral reap\n  corral reap --all --grace 2s",
  },
});
