// The CLI proper, loaded by main.ts for every command but `--version`:
// stricli runs the command table, then the exit status is mapped.
import { run } from "@stricli/core";
import process from "node:process";
import { buildApp } from "./app.ts";
import { loadRoutes } from "./registry.ts";
import type { CorralProcess } from "./context.ts";
import { ExitStatus } from "./shared/exit-status.ts";
import { dieOfSignal } from "./shared/signal-death.ts";

/** Runs the command in `args` and sets process.exitCode. */
export async function runApp(args: readonly string[]): Promise<void> {
  const corralProcess: CorralProcess = {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  };

  process.exitCode = await runCommandLine(args, corralProcess);

  if (corralProcess.dieOf !== undefined) await dieOfSignal(corralProcess.dieOf);
}

/**
 * Runs one command line against `corralProcess` and returns corral's exit
 * status. Separate from runApp so that tests can run help, usage errors and
 * bad values in-process, with streams of their own.
 */
export async function runCommandLine(args: readonly string[], corralProcess: CorralProcess): Promise<number> {
  await run(buildApp(await loadRoutes(args[0])), args, { process: corralProcess });

  // stricli reports its own failures as negative codes: a bad flag or value,
  // an unknown command. corral's contract (DESIGN.md 4.1) calls those usage
  // errors, status 2; any other negative code is corral's own failure.
  const code = corralProcess.exitCode;
  if (typeof code === "number" && code < 0) {
    return code === -4 || code === -5 ? ExitStatus.usage : ExitStatus.corralFailure;
  }
  return typeof code === "number" ? code : ExitStatus.ok;
}
