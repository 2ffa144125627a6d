// The one failure vocabulary: a code a client can branch on, and the table
// that gives each code its exit status (DESIGN.md 4.1). The agent sends the
// code on the wire ({code, message}); the CLI exits with the status the
// table gives, so a failure is translated once, not once per layer.
import { ExitStatus } from "./exit-status.ts";

/** Why something failed; clients branch on this, people read the message. */
export type ErrorCode =
  | "bad_request"
  | "unknown_op"
  | "unknown_session"
  | "session_exited"
  | "unknown_job"
  | "unknown_key"
  | "name_taken"
  | "spawn_failed"
  | "command_not_found"
  | "command_not_executable"
  | "timeout"
  | "version_mismatch"
  /** A global budget of the agent (memory) would be passed: agent-budgets.ts. */
  | "limit_exceeded"
  /** `pty exec`: the session's shell is not hooked (no shell integration). */
  | "no_shell_integration"
  /** `pty exec`: the shell runs a command, waits at PS2, or holds typed text. */
  | "shell_busy"
  /** `pty exec`: the shell did not run the line: incomplete (cancelled with Ctrl-C) or refused. */
  | "command_not_run"
  /** The agent does not run this command line itself (the native client hands it to the JavaScript CLI). */
  | "not_served"
  /** The transport to a remote agent (ssh, --via) failed or was lost: never the command's own exit. */
  | "connection_lost"
  | "internal";

/** The exit status each code gives a shell-facing command. */
export const EXIT_STATUS_OF_CODE: Readonly<Record<ErrorCode, number>> = {
  bad_request: ExitStatus.usage,
  unknown_op: ExitStatus.usage,
  unknown_key: ExitStatus.usage,
  unknown_session: ExitStatus.failure,
  session_exited: ExitStatus.failure,
  unknown_job: ExitStatus.failure,
  name_taken: ExitStatus.failure,
  version_mismatch: ExitStatus.failure,
  no_shell_integration: ExitStatus.failure,
  shell_busy: ExitStatus.failure,
  command_not_run: ExitStatus.failure,
  timeout: ExitStatus.timedOut,
  command_not_found: ExitStatus.notFound,
  command_not_executable: ExitStatus.notExecutable,
  spawn_failed: ExitStatus.corralFailure,
  limit_exceeded: ExitStatus.corralFailure,
  not_served: ExitStatus.corralFailure,
  internal: ExitStatus.corralFailure,
  connection_lost: ExitStatus.connectionLost,
};

/** The status for `code`; a code this build does not know (a newer agent's) is corral's own failure. */
export function exitStatusOfCode(code: string): number {
  return (EXIT_STATUS_OF_CODE as Record<string, number | undefined>)[code] ?? ExitStatus.corralFailure;
}

/** A failure told apart by its code (execa's habit: one class, fields tell them apart). */
export class CorralError extends Error {
  override readonly name: string = "CorralError";
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }

  /** The status a shell-facing command exits with for this failure. */
  get exitStatus(): number {
    return exitStatusOfCode(this.code);
  }
}
