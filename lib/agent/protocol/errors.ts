// How a request fails on the wire (DESIGN.md 4.6): `{code, message}`, never
// a bare string (pueue's lesson). Clients branch on the code, people read
// the message. The codes and their exit statuses are lib/core's one table.
import { CorralError, type ErrorCode } from "../../core/corral-error.ts";

/** Why a request failed: the one vocabulary of lib/core (codes and their exit statuses). */
export type { ErrorCode };

export interface WireError {
  readonly code: ErrorCode;
  readonly message: string;
}

/** A failed request, carried as an exception inside the agent and the client. */
export class AgentError extends CorralError {
  override readonly name = "AgentError";
  toWire(): WireError {
    return { code: this.code, message: this.message };
  }
}

/** The one error a malformed request gets. */
export function badRequest(message: string): AgentError {
  return new AgentError("bad_request", message);
}
