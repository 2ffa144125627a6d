// Every check of an incoming message, from the table (operations.ts): the
// handlers receive only well-typed requests, and a wrong type, a missing
// field or a bad id is answered with `bad_request` naming the field, never
// a crash. Messages on an attached connection are checked the same way and
// dropped when they do not check out.
import { AgentError, badRequest } from "./errors.ts";
import { frameJson } from "./frames.ts";
import { asObject, type FieldChecks, readFields } from "./fields.ts";
import { ATTACHED_MESSAGES, type AttachedMessage, type Envelope, type Op, OPERATIONS } from "./operations.ts";

/** The operations, in the table's order (the `unknown_op` message lists them). */
export const OPS = Object.keys(OPERATIONS) as Op[];

/** The id of a raw message, or 0 when it has none usable (the reply still goes out). */
export function requestId(raw: unknown): number {
  const id = asObject(raw)?.id;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? id : 0;
}

/** Validates a decoded JSON message into a typed request; throws AgentError. */
export function parseRequest(raw: unknown, checks: FieldChecks): Envelope {
  const o = asObject(raw);
  if (o === undefined) throw badRequest("a request must be a JSON object");
  if (typeof o.id !== "number" || !Number.isSafeInteger(o.id) || o.id < 0) {
    throw badRequest('"id" must be a non-negative integer');
  }
  const id = o.id;
  if (typeof o.op !== "string") throw badRequest('"op" must be a string naming the operation');
  const op = o.op;
  if (!Object.hasOwn(OPERATIONS, op)) {
    throw new AgentError("unknown_op", `unknown op "${op.slice(0, 40)}"; use one of ${OPS.join(", ")}`);
  }
  const operation = OPERATIONS[op as Op];
  const fields = readFields(operation.fields, o, checks);
  (operation as { refine?: (request: unknown) => void }).refine?.(fields);
  return { op, ...fields, id } as Envelope;
}

/** Whether an operation may come before the hello (finding and stopping an agent of another version). */
export function allowedBeforeHello(op: Op): boolean {
  return (OPERATIONS[op] as { beforeHello?: true }).beforeHello === true;
}

/** Attached messages need no server-side checks. */
const NO_CHECKS: FieldChecks = { regexProblem: () => null };

/** The message in a JSON frame on an attached connection, or null for anything garbled (ignored, not fatal). */
export function parseAttachedFrame(body: Uint8Array): AttachedMessage | null {
  let raw: unknown;
  try {
    raw = frameJson(body);
  } catch {
    return null;
  }
  const o = asObject(raw);
  if (o === undefined || typeof o.op !== "string" || !Object.hasOwn(ATTACHED_MESSAGES, o.op)) return null;
  const op = o.op as AttachedMessage["op"];
  try {
    return { op, ...readFields(ATTACHED_MESSAGES[op], o, NO_CHECKS) } as AttachedMessage;
  } catch {
    return null;
  }
}
