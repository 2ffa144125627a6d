// The context every command function runs with. Commands report their exit
// status by setting `process.exitCode`; cli/run-app.ts maps stricli's own
// negative codes (bad flag, unknown command) to corral's usage status 2.
import type { CommandContext } from "@stricli/core";

export interface CorralProcess {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  exitCode?: number | string | null;
}

export interface CorralContext extends CommandContext {
  readonly process: CorralProcess;
}
