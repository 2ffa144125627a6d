// The context every command function runs with. Commands report their exit
// status by setting `process.exitCode` (or `dieOf`); cli/run-app.ts maps
// stricli's own negative codes (bad flag, unknown command) to corral's usage
// status 2.
import type { CommandContext } from "@stricli/core";

export interface CorralProcess {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  exitCode?: number | string | null;
  /**
   * A signal corral forwarded killed the child: once the command is done
   * (facts written, output flushed), cli/main.ts makes corral die of it too,
   * as GNU timeout does, so a shell loop around corral stops on Ctrl-C.
   */
  dieOf?: NodeJS.Signals;
  /** A command the agent runs for the native client: aborts when that client has gone. */
  readonly callerGone?: AbortSignal;
}

export interface CorralContext extends CommandContext {
  readonly process: CorralProcess;
}
