// The context every command function runs with. Commands report their exit
// status by setting `process.exitCode` (or `dieOf`); cli/run-app.ts maps
// stricli's own negative codes (bad flag, unknown command) to corral's usage
// status 2.
import type { CommandContext, RouteMap } from "@stricli/core";

export interface CorralProcess {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where `--stdin` reads from when not this process's own stdin (a command the agent runs for the native client). */
  readonly stdin?: AsyncIterable<Uint8Array>;
  exitCode?: number | string | null;
  /**
   * A signal corral forwarded killed the child: once the command is done
   * (facts written, output flushed), cli/main.ts makes corral die of it too,
   * as GNU timeout does, so a shell loop around corral stops on Ctrl-C.
   */
  dieOf?: NodeJS.Signals;
  /** The code and message of a failure, when the command knows them: the --json error object says them (cli/shared/json-failure.ts). */
  failure?: { readonly code: string; readonly message: string };
  /** The command printed its --json object somewhere else than stdout (collect --live --json: stderr). */
  jsonElsewhere?: boolean;
  /** A command the agent runs for the native client: aborts when that client has gone. */
  readonly callerGone?: AbortSignal;
  /** The caller's working directory when it is not this process's (a command the agent runs for the native client). */
  readonly cwd?: string;
}

export interface CorralContext extends CommandContext {
  readonly process: CorralProcess;
  /**
   * The whole command table (cli/registry.ts), handed down by the entry that
   * loaded it (cli/run-app.ts): `corral completions` builds its scripts from
   * it without importing the table that imports it. Absent under a hot bundle.
   */
  readonly commandTable?: () => Promise<RouteMap<CorralContext>>;
  /** Runs another command line over the whole table (the agent's door for the native client); absent under a hot bundle. */
  readonly runCommandLine?: (argv: readonly string[], corralProcess: CorralProcess) => Promise<number>;
}
