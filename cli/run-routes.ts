// Running a command line over a given route map: stricli runs the command,
// then the exit status is mapped and a forwarded signal is died of. Shared by
// the whole-table path (run-app.ts, over the registry) and the one-command
// bundles (cli/hot/), which must not load the registry.
import { run, type RouteMap } from "@stricli/core";
import process from "node:process";
import { buildApp } from "./app.ts";
import type { CorralContext, CorralProcess } from "./context.ts";
import { lazyStdio } from "./lazy-stdio.ts";
import { ExitStatus } from "./shared/exit-status.ts";
import { dieOfSignal } from "./shared/signal-death.ts";
import { asksForJson, watchForJsonFailure } from "./shared/json-failure.ts";

/** Runs the command in `args` over `routes` and sets process.exitCode. */
export async function runAppOver(routes: RouteMap<CorralContext>, args: readonly string[]): Promise<void> {
  const corralProcess: CorralProcess = {
    stdout: lazyStdio(1),
    stderr: lazyStdio(2),
    env: process.env,
  };

  process.exitCode = await runCommandLineOver(routes, args, corralProcess);

  if (corralProcess.dieOf !== undefined) await dieOfSignal(corralProcess.dieOf);
}

/** Runs one command line over `routes` against `corralProcess`; returns corral's exit status. */
export async function runCommandLineOver(routes: RouteMap<CorralContext>, args: readonly string[], corralProcess: CorralProcess): Promise<number> {
  if (args.length === 0) {
    // Bare `corral`: a script that forgot its subcommand must not succeed.
    // The help goes to stderr (stdout stays empty for whoever reads it) and
    // the status is a usage error's.
    await run(buildApp(routes), ["--help"], { process: { ...corralProcess, stdout: corralProcess.stderr } });
    corralProcess.stderr.write("corral: no command given; see the list above (corral --help prints it on stdout)\n");
    return ExitStatus.usage;
  }
  const json = asksForJson(args) ? watchForJsonFailure(corralProcess) : null;
  await run(buildApp(routes), args, { process: json?.process ?? corralProcess });
  const status = statusOf(corralProcess);
  json?.finish(status);
  return status;
}

/** corral's exit status from what the command set. */
function statusOf(corralProcess: CorralProcess): number {
  // stricli reports its own failures as negative codes: a bad flag or value,
  // an unknown command. corral's contract (DESIGN.md 4.1) calls those usage
  // errors, status 2; any other negative code is corral's own failure.
  const code = corralProcess.exitCode;
  if (typeof code === "number" && code < 0) {
    return code === -4 || code === -5 ? ExitStatus.usage : ExitStatus.corralFailure;
  }
  return typeof code === "number" ? code : ExitStatus.ok;
}
