// How a request fails on the wire (DESIGN.md 4.6): `{code, message}`, never
// a bare string (pueue's lesson). Clients branch on the code, people read
// the message.

/** Why a request failed. */
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
  /** A global budget of the agent (memory) would be passed: server/agent-budgets.ts. */
  | "limit_exceeded"
  | "internal";

export interface WireError {
  readonly code: ErrorCode;
  readonly message: string;
}

/** A failed request, carried as an exception inside the agent and the client. */
export class AgentError extends Error {
  override readonly name = "AgentError";
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }
  toWire(): WireError {
    return { code: this.code, message: this.message };
  }
}

/** The one error a malformed request gets. */
export function badRequest(message: string): AgentError {
  return new AgentError("bad_request", message);
}
