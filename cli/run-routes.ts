// Running a command line over a given route map: stricli runs the command,
// then the exit status is mapped and a forwarded signal is died of. Shared by
// the whole-table path (run-app.ts, over the registry) and the one-command
// bundles (cli/hot/), which must not load the registry.
import { run, type RouteMap } from "@stricli/core";
import process from "node:process";
import { buildApp } from "./app.ts";
import type { CorralContext, CorralProcess } from "./shared/context.ts";
import { lazyStdio } from "./lazy-stdio.ts";
import { ExitStatus } from "./shared/exit-status.ts";
import { dieOfSignal } from "./shared/signal-death.ts";

/** Runs the command in `args` over `routes` and sets process.exitCode. */
export async function runAppOver(routes: RouteMap<CorralContext>, args: readonly string[], commandTable?: CommandTable): Promise<void> {
  const corralProcess: CorralProcess = {
    stdout: lazyStdio(1),
    stderr: lazyStdio(2),
    env: process.env,
  };

  process.exitCode = await runCommandLineOver(routes, args, corralProcess, commandTable);

  if (corralProcess.dieOf !== undefined) await dieOfSignal(corralProcess.dieOf);
}

/** The whole command table, for the context (CorralContext.commandTable). */
type CommandTable = () => Promise<RouteMap<CorralContext>>;

/** Runs one command line over `routes` against `corralProcess`; returns corral's exit status. */
export async function runCommandLineOver(
  routes: RouteMap<CorralContext>,
  args: readonly string[],
  corralProcess: CorralProcess,
  commandTable?: CommandTable,
): Promise<number> {
  await run(buildApp(routes), args, commandTable === undefined ? { process: corralProcess } : { process: corralProcess, commandTable });

  // stricli reports its own failures as negative codes: a bad flag or value,
  // an unknown command. corral's contract (DESIGN.md 4.1) calls those usage
  // errors, status 2; any other negative code is corral's own failure.
  const code = corralProcess.exitCode;
  if (typeof code === "number" && code < 0) {
    return code === -4 || code === -5 ? ExitStatus.usage : ExitStatus.corralFailure;
  }
  return typeof code === "number" ? code : ExitStatus.ok;
}
