// A child that could not be started is reported with the same exit-status
// vocabulary as one that ran (DESIGN.md 4.1): 127 not found, 126 not
// executable, and a bad working directory is a bad flag value. One error for
// every way of starting (pipe or terminal, any backend), one failure
// vocabulary, and its wire code from lib/core's table: the agent sends
// `error.code` as is, the CLI exits with `error.exitStatus`.
import { CorralError, type ErrorCode } from "../core/corral-error.ts";

/** Why a spawn failed before the child ran. */
export type SpawnFailure = "not-found" | "not-executable" | "bad-cwd" | "backend-unavailable" | "spawn-failed";

/** The wire code (and so the exit status: 127, 126, 2, 125) of each failure. */
const CODE_OF: Record<SpawnFailure, ErrorCode> = {
  "not-found": "command_not_found",
  "not-executable": "command_not_executable",
  "bad-cwd": "bad_request",
  "backend-unavailable": "spawn_failed",
  "spawn-failed": "spawn_failed",
};

/** One error class, told apart by `failure` (execa's habit). */
export class SpawnError extends CorralError {
  override readonly name = "SpawnError";
  readonly failure: SpawnFailure;

  constructor(failure: SpawnFailure, message: string) {
    super(CODE_OF[failure], message);
    this.failure = failure;
  }
}
