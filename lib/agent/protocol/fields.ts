// A small field checker, so that an agent operation is described once
// (operations.ts) and both its TypeScript type and its validation come from
// that description (pueue derives both from one `Request` type). Our own
// rather than a schema library: a dozen kinds cover every field, the
// messages keep the protocol's wording ("\"cols\" must be an integer from 1
// to 100000"), and it costs the client's start-up nothing measurable
// (README, "Development: the agent protocol table").
import { badRequest } from "./errors.ts";

/** A decoded JSON object, as a request arrives. */
export type Obj = Record<string, unknown>;

/**
 * Checks the server supplies: what needs a library the protocol does not
 * load (a user's regular expression is compiled by RE2 in lib/pty).
 */
export interface FieldChecks {
  /** The reason `source` is not a usable pattern, or null when it is. */
  regexProblem(source: string): string | null;
}

/** One field: its type `T`, whether it may be absent, and how a raw value is checked. */
export interface Field<T, Optional extends boolean = boolean> {
  readonly optional: Optional;
  /** Checks `value` (the field `key` of a request); throws AgentError bad_request naming the key. */
  read(value: unknown, key: string, checks: FieldChecks): T;
}

/** Fields of one message, in the order they are checked (the first bad one is named). */
export type FieldSpec = Readonly<Record<string, Field<unknown>>>;

type Simplify<T> = { [K in keyof T]: T[K] };
type RequiredKeys<S extends FieldSpec> = { [K in keyof S]: S[K] extends Field<unknown, false> ? K : never }[keyof S];
type OptionalKeys<S extends FieldSpec> = Exclude<keyof S, RequiredKeys<S>>;
type ValueOf<F> = F extends Field<infer T> ? T : never;

/** The TypeScript type a spec describes: required fields, and optional ones that may be absent. */
export type Fields<S extends FieldSpec> = Simplify<
  & { readonly [K in RequiredKeys<S>]: ValueOf<S[K]> }
  & { readonly [K in OptionalKeys<S>]?: ValueOf<S[K]> }
>;

/** A required field checked by `read`. */
export function field<T>(read: (value: unknown, key: string, checks: FieldChecks) => T): Field<T, false> {
  return { optional: false, read };
}

/** The same field, absent when missing or null (a client may send `"name": null`). */
export function optional<T>(inner: Field<T>): Field<T, true> {
  return { optional: true, read: inner.read };
}

/** Reads every field of `spec` from `o`, in order; absent optional fields are left out. */
export function readFields<S extends FieldSpec>(spec: S, o: Obj, checks: FieldChecks): Fields<S> {
  const out: Obj = {};
  for (const [key, f] of Object.entries(spec)) {
    const value = o[key];
    if (f.optional && (value === undefined || value === null)) continue;
    const read = f.read(value, key, checks);
    if (read !== undefined) out[key] = read;
  }
  return out as Fields<S>;
}

/** A JSON object (not an array, not null), or undefined. */
export function asObject(value: unknown): Obj | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
}

// ---- the kinds ----------------------------------------------------------

/** An integer within [min, max]. */
export function integer(min: number, max: number): Field<number, false> {
  return field((value, key) => {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw badRequest(`"${key}" must be an integer from ${min} to ${max}`);
    }
    return value;
  });
}

/** Any JSON number; the receiver clamps it (a window size from an attached terminal). */
export function number(): Field<number, false> {
  return field((value, key) => {
    if (typeof value !== "number") throw badRequest(`"${key}" must be a number`);
    return value;
  });
}

export function boolean(): Field<boolean, false> {
  return field((value, key) => {
    if (typeof value !== "boolean") throw badRequest(`"${key}" must be true or false`);
    return value;
  });
}

export function text(): Field<string, false> {
  return field((value, key) => {
    if (typeof value !== "string") throw badRequest(`"${key}" must be a string`);
    return value;
  });
}

export function texts(): Field<readonly string[], false> {
  return field((value, key) => {
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
      throw badRequest(`"${key}" must be an array of strings`);
    }
    return value as string[];
  });
}

/** One string or an array of them, as an array. */
export function textOrTexts(): Field<readonly string[], false> {
  const many = texts();
  return field((value, key, checks) => (typeof value === "string" ? [value] : many.read(value, key, checks)));
}

/**
 * A string that reaches exec (a path, TERM): a NUL byte cannot pass through
 * execve and would fail deep in spawn, so it is a bad request.
 */
export function execText(): Field<string, false> {
  const plain = text();
  return field((value, key, checks) => {
    const s = plain.read(value, key, checks);
    if (s.includes("\0")) throw badRequest(`"${key}" must not contain a NUL byte`);
    return s;
  });
}

/** Strings that reach exec (argv): no NUL bytes. */
export function execTexts(): Field<readonly string[], false> {
  const plain = texts();
  return field((value, key, checks) => {
    const list = plain.read(value, key, checks);
    if (list.some((v) => v.includes("\0"))) throw badRequest(`"${key}" must not contain a NUL byte`);
    return list;
  });
}

/** A string that must also pass `test`; `wrong` is the whole message when it does not. */
export function textWhere(test: (s: string) => boolean, wrong: string): Field<string, false> {
  const plain = text();
  return field((value, key, checks) => {
    const s = plain.read(value, key, checks);
    if (!test(s)) throw badRequest(wrong);
    return s;
  });
}

/** One of a few names; anything else (or nothing) reads as `fallback`. Lenient by design: see its use. */
export function nameOr<const N extends string>(names: readonly N[], fallback: N): Field<N, false> {
  return field((value) => (names.includes(value as N) ? (value as N) : fallback));
}

/** An object of fields checked by `spec`. */
export function object<S extends FieldSpec>(spec: S, wrong: string): Field<Fields<S>, false> {
  return field((value, _key, checks) => {
    const o = asObject(value);
    if (o === undefined) throw badRequest(wrong);
    return readFields(spec, o, checks);
  });
}

/** A value the agent sends and the client trusts (events): described for its type, never checked. */
export function trusted<T>(): Field<T, false> {
  return field((value) => value as T);
}
