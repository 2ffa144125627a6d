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
import { asksForJson, watchForJsonFailure } from "./shared/json-failure.ts";

/** Runs the command in `args` over `routes` and sets process.exitCode. */
export async function runAppOver(routes: RouteMap<CorralContext>, args: readonly string[], commandTable?: CommandTable, runOther?: RunCommandLine): Promise<void> {
  const corralProcess: CorralProcess = {
    stdout: lazyStdio(1),
    stderr: lazyStdio(2),
    env: process.env,
  };

  process.exitCode = await runCommandLineOver(routes, args, corralProcess, commandTable, runOther);

  if (corralProcess.dieOf !== undefined) await dieOfSignal(corralProcess.dieOf);
}

/** The whole command table, for the context (CorralContext.commandTable). */
type CommandTable = () => Promise<RouteMap<CorralContext>>;
/** Runs another command line as the entry would (CorralContext.runCommandLine). */
type RunCommandLine = (argv: readonly string[], corralProcess: CorralProcess) => Promise<number>;

/**
 * Whether this command line prints help: a help flag before any `--`, no
 * argument, or a group with no default command named alone (`corral pty`).
 * Cheap, so that only help loads help-wrap.ts.
 */
function helpAsked(routes: RouteMap<CorralContext>, args: readonly string[]): boolean {
  const end = args.indexOf("--");
  const before = end === -1 ? args : args.slice(0, end);
  if (before.some((arg) => arg === "-h" || arg === "-H" || arg.startsWith("--help"))) return true;
  if (args.length === 0) return true;
  if (args.length !== 1) return false;
  const target = routes.getRoutingTargetForInput(args[0] as string);
  return target !== undefined && "getDefaultCommand" in target && target.getDefaultCommand() === undefined;
}

/** Runs one command line over `routes` against `corralProcess`; returns corral's exit status. */
export async function runCommandLineOver(
  routes: RouteMap<CorralContext>,
  args: readonly string[],
  corralProcess: CorralProcess,
  commandTable?: CommandTable,
  runOther?: RunCommandLine,
): Promise<number> {
  // The whole table's entry also hands down how it runs another command line:
  // the agent serves the native client's command lines with it.
  const context = (process: CorralProcess) => ({
    process,
    ...(commandTable !== undefined ? { commandTable } : {}),
    ...(runOther !== undefined ? { runCommandLine: runOther } : {}),
  });
  // `corral help [COMMAND...]`, as git and cargo have it: that command's help;
  // `corral version`, as go and kubectl have it: `corral --version`.
  if (args[0] === "help" && routes.getRoutingTargetForInput("help") === undefined) args = [...args.slice(1), "--help"];
  if (args[0] === "version" && routes.getRoutingTargetForInput("version") === undefined) {
    if (args.length > 1) {
      corralProcess.stderr.write("corral: version takes nothing after it: corral version (or corral --version) prints the version\n");
      return ExitStatus.usage;
    }
    args = ["--version"];
  }
  if (args.length === 0) {
    // Bare `corral`: a script that forgot its subcommand must not succeed.
    // The help goes to stderr (stdout stays empty for whoever reads it) and
    // the status is a usage error's.
    const { helpStream, helpWidth } = await import("./shared/help-wrap.ts");
    const toStderr: CorralProcess = { ...corralProcess, stdout: helpStream(corralProcess.stderr, helpWidth(corralProcess.env, corralProcess.stderr)) };
    await run(buildApp(routes), ["--help"], context(toStderr));
    corralProcess.stderr.write("corral: no command given; see the list above (corral --help prints it on stdout)\n");
    return ExitStatus.usage;
  }
  if (helpAsked(routes, args)) {
    // Help is wrapped to the reader's width (help-wrap.ts, loaded only then).
    const { helpStream, helpWidth } = await import("./shared/help-wrap.ts");
    const helped: CorralProcess = { ...corralProcess, stdout: helpStream(corralProcess.stdout, helpWidth(corralProcess.env, corralProcess.stdout)) };
    await run(buildApp(routes, args), args, context(helped));
    if (helped.exitCode !== undefined) corralProcess.exitCode = helped.exitCode;
    if (helped.dieOf !== undefined) corralProcess.dieOf = helped.dieOf;
    return statusOf(corralProcess);
  }
  const json = asksForJson(args) ? watchForJsonFailure(corralProcess) : null;
  await run(buildApp(routes, args), args, context(json?.process ?? corralProcess));
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
