// The CLI proper over the whole command table (cli/registry.ts), loaded by
// main.ts for every command but `--version` and those with a bundle of their
// own (cli/hot/).
import { loadRoutes } from "./registry.ts";
import type { CorralProcess } from "./shared/context.ts";
import { runAppOver, runCommandLineOver } from "./run-routes.ts";

/** Runs the command in `args` and sets process.exitCode. */
export async function runApp(args: readonly string[]): Promise<void> {
  await runAppOver(await loadRoutes(args[0]), args, () => loadRoutes(), runCommandLine);
}

/**
 * Runs one command line against `corralProcess` and returns corral's exit
 * status. Separate from runApp so that tests can run help, usage errors and
 * bad values in-process, with streams of their own.
 */
export async function runCommandLine(args: readonly string[], corralProcess: CorralProcess): Promise<number> {
  return await runCommandLineOver(await loadRoutes(args[0]), args, corralProcess, () => loadRoutes(), runCommandLine);
}
