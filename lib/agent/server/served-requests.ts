// The requests of a `connect` the agent serves for the native client
// (command-line-door.ts, CommandRequests). `corral connect` used to be a
// JavaScript process relaying JSON lines to this socket: each request
// crossed two processes and two event loops, and the relay's own start,
// parse and re-encode cost more than the agent's answer. Now the native
// client pushes its stdin to the agent and the lines are answered here,
// each run as a request of the connection that carries them: the same
// checks (operations.ts), the same handlers and the same failure replies
// as a request frame gets, without a second socket between.
// A connection's served lines take turns with other connections as its
// request frames do (connection.ts, REQUESTS_PER_TURN). Operations that
// turn the connection into a byte stream are refused: the lines and the
// replies share it.
import type { AgentContext } from "./agent-context.ts";
import { AgentError } from "../protocol/messages.ts";
import { parseRequest } from "../protocol/validation.ts";
import { SERVER_CHECKS } from "./request-checks.ts";
import { route, type RequestScope } from "./router.ts";
import type { CommandRequests } from "./command-line-door.ts";
import { fdExhaustionMessage } from "./fd-exhaustion.ts";

/** Requests one connection runs before the others get a turn (as connection.ts). */
export const REQUESTS_PER_TURN = 8;

/** Operations whose answer takes over the connection (or writes to it raw). */
const STREAMING = new Set(["attach", "watch", "fg", "command-line"]);

/** A connection's served requests: run in turn, each answered with its reply body. */
export class ServedRequests implements CommandRequests {
  #turn = 0;

  constructor(
    readonly ctx: AgentContext,
    readonly scope: RequestScope,
    readonly log: (line: string) => void,
  ) {}

  async run(message: Record<string, unknown>, ref: unknown): Promise<Record<string, unknown>> {
    // Lines yield to the event loop every REQUESTS_PER_TURN, as request frames do: a
    // burst cannot keep the other connections waiting. Counted across turns of the loop,
    // not reset at each: scheduling that reset cost every lockstep request an Immediate
    // (issue 33), where one yield in REQUESTS_PER_TURN costs a lockstep client next to nothing.
    if (++this.#turn >= REQUESTS_PER_TURN) {
      this.#turn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    try {
      const op = message.op;
      if (typeof op === "string" && (STREAMING.has(op) || (op === "job-start" && message.attach === true) || (op === "job-read" && message.raw === true))) {
        throw new AgentError("bad_request", `"${op}" turns the connection into a byte stream, which connect's JSON lines cannot carry; use the corral command`);
      }
      message.id = 0;
      const request = parseRequest(message, SERVER_CHECKS);
      this.ctx.touch();
      const body: object = await route(this.ctx, request, this.scope);
      // A reply frame's fields in their order, the ref in the id's place (no body has an id of its own).
      return ref === undefined ? { ok: true, ...body } : { ref, ok: true, ...body };
    } catch (error) {
      const failure = { ok: false, error: failureOf(error, message, this.log) };
      return ref === undefined ? failure : { ref, ...failure };
    } finally {
      this.ctx.touch();
    }
  }
}

/** The wire error for a failed request (the log gets what is not the client's fault). */
export function failureOf(error: unknown, raw: unknown, log: (line: string) => void): { code: string; message: string } {
  const exhausted = fdExhaustionMessage(error);
  if (exhausted !== null) {
    log(`out of file descriptors on a ${describeOp(raw)} request: ${(error as Error)?.message ?? String(error)}`);
    return { code: error instanceof AgentError ? error.code : "internal", message: exhausted };
  }
  if (error instanceof AgentError) return error.toWire();
  log(`internal error on a ${describeOp(raw)} request: ${(error as Error)?.stack ?? String(error)}`);
  return { code: "internal", message: `the agent failed: ${(error as Error)?.message ?? String(error)}` };
}

export function describeOp(raw: unknown): string {
  const op = typeof raw === "object" && raw !== null ? (raw as { op?: unknown }).op : undefined;
  return typeof op === "string" ? op.slice(0, 40) : "malformed";
}
