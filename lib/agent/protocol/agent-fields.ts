// The agent's own field kinds, built from fields.ts: what a session, a job,
// a name, an environment, a recording and a wait look like on the wire.
// Each message names the field and what would be right.
import { badRequest } from "./errors.ts";
import {
  asObject,
  boolean,
  execTexts,
  field,
  type Field,
  type Fields,
  integer,
  optional,
  readFields,
  text,
  textOrTexts,
  textWhere,
} from "./fields.ts";
import { MIN_RECORD_BYTES, type RecordingSpec } from "../../core/recording-spec.ts";
import { MAX_DURATION_MS } from "../../core/duration.ts";

/** Sizes are clamped to 1..1000 by the session; beyond this is a mistake. */
export const MAX_DIMENSION = 100_000;
/** Milliseconds that fit a timer: the same limit as a duration flag's (lib/core/duration.ts), so the CLI and the wire refuse the same values. */
export const MAX_MS = MAX_DURATION_MS;
/** Sizes up to 1 TiB: the store allocates lazily, so this only stops nonsense. */
export const MAX_SIZE = 2 ** 40;

export const dimension = () => integer(1, MAX_DIMENSION);
export const millis = () => integer(0, MAX_MS);

/** A session id or name. */
export function sessionRef(): Field<string, false> {
  return field((value) => {
    if (typeof value !== "string" || value.length === 0 || value.length > 200) {
      throw badRequest('"session" must be a session id or name (a non-empty string)');
    }
    return value;
  });
}

/** A job id like %1; absent means the current job. */
export function jobRef(): Field<string, false> {
  return textWhere((s) => s.length > 0 && s.length <= 80, '"job" must be a job id like %1 (or absent for the current job)');
}

/** A session or job name: letters, digits, . _ -, not only digits. */
export function sessionName(): Field<string, false> {
  return textWhere(
    (s) => /^[A-Za-z0-9._-]{1,64}$/.test(s) && !/^\d+$/.test(s),
    '"name" must be 1-64 letters, digits, ".", "_" or "-", and not only digits',
  );
}

/** A program and its arguments; `firstNamed`: the program's name may not be empty either. */
export function argv(firstNamed = false): Field<readonly string[], false> {
  const strings = execTexts();
  return field((value, key, checks) => {
    if (value === undefined || value === null) throw badRequest(`"${key}" must be a non-empty array of strings`);
    const list = strings.read(value, key, checks);
    if (list.length === 0 || (firstNamed && list[0] === "")) throw badRequest(`"${key}" must be a non-empty array of strings`);
    return list;
  });
}

/** An environment; a bad entry is named by its key, never its value (it may be a secret). */
export function environment(): Field<Readonly<Record<string, string>>, false> {
  return field((value) => {
    const o = asObject(value);
    if (o === undefined) throw badRequest('"env" must be an object of string values');
    for (const [k, v] of Object.entries(o)) {
      if (typeof v !== "string" || k.length === 0 || k.includes("=") || k.includes("\0") || v.includes("\0")) {
        throw badRequest(`"env" entry ${JSON.stringify(k.slice(0, 60))} must have a name without "=" or NUL and a string value without NUL`);
      }
    }
    return o as Record<string, string>;
  });
}

export function base64(): Field<string, false> {
  return textWhere((s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s), '"bytes" must be base64');
}

/** An absolute path (a spill file). */
export function absolutePath(): Field<string, false> {
  return field((value, key, checks) => {
    const s = text().read(value, key, checks);
    if (!s.startsWith("/")) throw badRequest(`"${key}" must be an absolute path`);
    return s;
  });
}

const RECORDING = {
  maxBytes: optional(integer(MIN_RECORD_BYTES, Number.MAX_SAFE_INTEGER)),
  input: optional(boolean()),
};

/** A recording: {path (absolute), maxBytes?, input?}. */
export function recording(): Field<RecordingSpec, false> {
  return field((value, _key, checks) => {
    const r = asObject(value);
    if (r === undefined) throw badRequest('"record" must be an object {path, maxBytes?, input?}');
    const path = r.path === undefined || r.path === null ? undefined : text().read(r.path, "path", checks);
    if (path === undefined || !path.startsWith("/") || path.includes("\0")) throw badRequest('"record.path" must be an absolute file path');
    return { path, ...readFields(RECORDING, r, checks) };
  });
}

/** Regular expressions (RE2 syntax), checked by the server's compiler before anything waits. */
export function regexes(): Field<readonly string[], false> {
  const sources = textOrTexts();
  return field((value, key, checks) => {
    const list = sources.read(value, key, checks);
    for (const source of list) {
      const problem = checks.regexProblem(source);
      if (problem !== null) throw badRequest(`"${key}": ${problem}`);
    }
    return list;
  });
}

/** The conditions of a wait, in the order they are checked; the first one met wins. */
export const WAIT_CONDITIONS = {
  regex: optional(regexes()),
  text: optional(textOrTexts()),
  stableMs: optional(millis()),
  ready: optional(boolean()),
  exit: optional(boolean()),
  timeoutMs: optional(millis()),
};

/** `send`'s `wait`: an object of wait conditions, at least one besides the timeout. */
export function waitObject(): Field<Fields<typeof WAIT_CONDITIONS>, false> {
  return field((value, _key, checks) => {
    const o = asObject(value);
    if (o === undefined) throw badRequest('"wait" must be an object of conditions, e.g. {"text": ["$ "]}');
    const conditions = readFields(WAIT_CONDITIONS, o, checks);
    if (Object.keys(conditions).every((k) => k === "timeoutMs")) {
      throw badRequest('"wait" needs a condition: text, regex, stableMs, ready or exit');
    }
    return conditions;
  });
}

/**
 * What `agent-stop` does with running sessions and jobs (issue 11): "end"
 * them (what a request without the field means: older clients), "keep" them
 * running for the next agent (their guardians wait), or "refuse" to stop.
 */
export type StopRunning = "end" | "keep" | "refuse";
export function stopRunning() {
  return field((value, key): StopRunning => {
    if (value === "end" || value === "keep" || value === "refuse") return value;
    throw badRequest(`"${key}" must be "end", "keep" or "refuse", got ${JSON.stringify(value)?.slice(0, 40)}`);
  });
}
