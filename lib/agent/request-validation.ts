// Every check of an incoming request, in one place: the handlers receive
// only well-typed requests, and a wrong type, a missing field or a bad id is
// answered with `bad_request` naming the field, never a crash.
import { AgentError, type Envelope, type Request } from "./protocol.ts";
import { parseJobBody } from "./job-request-validation.ts";
import { compileRegex, PatternError } from "../pty/wait-pattern.ts";
import { parseRecordBody, recordSpec } from "./record-request-validation.ts";

/** A decoded JSON object; the field checkers below (shared with job-request-validation.ts) read it. */
export type Obj = Record<string, unknown>;

/** Sizes are clamped to this range by the session; beyond it is a mistake. */
const MAX_DIMENSION = 100_000;

/** The id of a raw message, or 0 when it has none usable (the reply still goes out). */
export function requestId(raw: unknown): number {
  if (typeof raw !== "object" || raw === null) return 0;
  const id = (raw as Obj).id;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? id : 0;
}

/** Validates a decoded JSON message into a typed request; throws AgentError. */
export function parseRequest(raw: unknown): Envelope {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw bad("a request must be a JSON object");
  }
  const o = raw as Obj;
  if (typeof o.id !== "number" || !Number.isSafeInteger(o.id) || o.id < 0) {
    throw bad('"id" must be a non-negative integer');
  }
  const id = o.id;
  if (typeof o.op !== "string") throw bad('"op" must be a string naming the operation');
  const op = o.op;
  const request = parseBody(op, o);
  return { ...request, id } as Envelope;
}

function parseBody(op: string, o: Obj): Request {
  switch (op) {
    case "hello":
      return { op, version: int(o, "version", 0, Number.MAX_SAFE_INTEGER) as number };
    case "open": {
      const argv = execStrings(o, "argv");
      if (argv === undefined || argv.length === 0) throw bad('"argv" must be a non-empty array of strings');
      return clean({
        op,
        argv,
        name: name(o),
        cols: optInt(o, "cols", 1, MAX_DIMENSION),
        rows: optInt(o, "rows", 1, MAX_DIMENSION),
        cwd: execString(o, "cwd"),
        env: env(o),
        term: execString(o, "term"),
        scrollback: optInt(o, "scrollback", 0, 1_000_000),
        record: recordSpec(o),
      });
    }
    case "send":
      return clean({
        op,
        session: session(o),
        text: str(o, "text"),
        keys: strings(o, "keys"),
        bytes: base64(o),
        wait: sendWait(o),
      });
    case "screen":
      return clean({ op, session: session(o), since: str(o, "since"), scrollback: optInt(o, "scrollback", 0, 1_000_000), styles: bool(o, "styles") });
    case "wait":
      return clean({
        op,
        session: session(o),
        ...waitConditions(o),
        after: optInt(o, "after", 0, Number.MAX_SAFE_INTEGER),
        new: bool(o, "new"),
      });
    case "resize":
      return { op, session: session(o), cols: int(o, "cols", 1, MAX_DIMENSION) as number, rows: int(o, "rows", 1, MAX_DIMENSION) as number };
    case "close":
      return clean({ op, session: session(o), graceMs: optInt(o, "graceMs", 0, 2 ** 31 - 1), force: bool(o, "force") });
    case "attach":
      return clean({ op, session: session(o), cols: optInt(o, "cols", 1, MAX_DIMENSION), rows: optInt(o, "rows", 1, MAX_DIMENSION) });
    case "record":
    case "watch":
      return parseRecordBody(op, o, session(o));
    case "job-start":
    case "jobs":
    case "job-read":
    case "fg":
    case "bg":
    case "reap":
      return parseJobBody(op, o);
    case "list":
    case "agent-status":
      return { op };
    case "agent-stop": {
      const running = o.running;
      if (running === undefined) return { op };
      if (running !== "end" && running !== "keep" && running !== "refuse") {
        throw new AgentError("bad_request", `running must be "end", "keep" or "refuse", got ${JSON.stringify(running).slice(0, 40)}`);
      }
      return { op, running };
    }
    default:
      throw new AgentError(
        "unknown_op",
        `unknown op "${op.slice(0, 40)}"; use one of hello, open, send, screen, wait, resize, close, list, attach, record, watch, agent-status, agent-stop, job-start, jobs, job-read, fg, bg, reap`,
      );
  }
}

/** The one error a malformed request gets. */
export function bad(message: string): AgentError {
  return new AgentError("bad_request", message);
}

/** Drops undefined fields (exactOptionalPropertyTypes). */
export function clean<T extends object>(value: T): Request {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as unknown as Request;
}

function session(o: Obj): string {
  const value = o.session;
  if (typeof value !== "string" || value.length === 0 || value.length > 200) {
    throw bad('"session" must be a session id or name (a non-empty string)');
  }
  return value;
}

/** An optional session or job name: letters, digits, . _ -, not only digits. */
export function name(o: Obj): string | undefined {
  const value = str(o, "name");
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value) || /^\d+$/.test(value)) {
    throw bad('"name" must be 1-64 letters, digits, ".", "_" or "-", and not only digits');
  }
  return value;
}

/** An optional string field. */
export function str(o: Obj, key: string): string | undefined {
  const value = o[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw bad(`"${key}" must be a string`);
  return value;
}

/** An optional boolean field. */
export function bool(o: Obj, key: string): boolean | undefined {
  const value = o[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw bad(`"${key}" must be true or false`);
  return value;
}

/** An optional integer field within [min, max]. */
export function optInt(o: Obj, key: string, min: number, max: number): number | undefined {
  return o[key] === undefined || o[key] === null ? undefined : int(o, key, min, max);
}

/** A required integer field within [min, max]. */
export function int(o: Obj, key: string, min: number, max: number): number {
  const value = o[key];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw bad(`"${key}" must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** An optional array of strings. */
export function strings(o: Obj, key: string): string[] | undefined {
  const value = o[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw bad(`"${key}" must be an array of strings`);
  }
  return value as string[];
}

/**
 * An optional string that reaches exec (a path, TERM): a NUL byte cannot
 * pass through execve and would fail deep in spawn, so it is a bad request.
 */
export function execString(o: Obj, key: string): string | undefined {
  const value = str(o, key);
  if (value !== undefined && value.includes("\0")) throw bad(`"${key}" must not contain a NUL byte`);
  return value;
}

/** An optional array of strings that reaches exec (argv): no NUL bytes. */
export function execStrings(o: Obj, key: string): string[] | undefined {
  const value = strings(o, key);
  if (value !== undefined && value.some((v) => v.includes("\0"))) throw bad(`"${key}" must not contain a NUL byte`);
  return value;
}

/** An optional environment; a bad entry is named by its key, never its value. */
export function env(o: Obj): Record<string, string> | undefined {
  const value = o.env;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw bad('"env" must be an object of string values');
  for (const [k, v] of Object.entries(value as Obj)) {
    // Name only: a value may be a secret and never goes into a message.
    if (typeof v !== "string" || k.length === 0 || k.includes("=") || k.includes("\0") || v.includes("\0")) {
      throw bad(`"env" entry ${JSON.stringify(k.slice(0, 60))} must have a name without "=" or NUL and a string value without NUL`);
    }
  }
  return value as Record<string, string>;
}

function base64(o: Obj): string | undefined {
  const value = str(o, "bytes");
  if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw bad('"bytes" must be base64');
  return value;
}

/** A wait's conditions; `text` and `regex` take one string or an array of them. */
function waitConditions(o: Obj): Record<string, unknown> {
  const regex = stringOrStrings(o, "regex");
  for (const source of regex ?? []) {
    try {
      compileRegex(source);
    } catch (error) {
      if (error instanceof PatternError) throw bad(`"regex": ${error.message}`);
      throw error;
    }
  }
  return {
    text: stringOrStrings(o, "text"),
    regex,
    stableMs: optInt(o, "stableMs", 0, 2 ** 31 - 1),
    ready: bool(o, "ready"),
    exit: bool(o, "exit"),
    timeoutMs: optInt(o, "timeoutMs", 0, 2 ** 31 - 1),
  };
}

/** `send`'s optional `wait`: an object of wait conditions. */
function sendWait(o: Obj): Record<string, unknown> | undefined {
  const value = o.wait;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw bad('"wait" must be an object of conditions, e.g. {"text": ["$ "]}');
  const conditions = Object.fromEntries(Object.entries(waitConditions(value as Obj)).filter(([, v]) => v !== undefined));
  if (Object.keys(conditions).every((k) => k === "timeoutMs")) {
    throw bad('"wait" needs a condition: text, regex, stableMs, ready or exit');
  }
  return conditions;
}

/** An optional string or array of strings, as an array. */
function stringOrStrings(o: Obj, key: string): string[] | undefined {
  const value = o[key];
  if (typeof value === "string") return [value];
  return strings(o, key);
}
