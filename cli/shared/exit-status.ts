// Exit statuses of DESIGN.md 4.1 live in lib/core (lib/ uses them too);
// re-exported here so every command imports them from one place in cli/.
export { ExitStatus, signalStatus } from "../../lib/core/exit-status.ts";

/**
 * A usage error raised by a command after stricli parsed its flags (a bad
 * duration, a bad size). cli/run-app.ts prints its message as one line and
 * exits 2.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
