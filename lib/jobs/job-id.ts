// Job ids as a person types them, shell style: `3`, `%3`, `%+`/`%%`
// (current), `%-` (previous), or a `--name` given at start. Parsed apart
// from lookup so a malformed id is a usage error (exit 2) and an unknown
// one a plain failure (exit 1).
import { CorralError } from "../core/corral-error.ts";

/** What a job id names. */
export type JobRef =
  | { readonly kind: "number"; readonly n: number }
  | { readonly kind: "current" }
  | { readonly kind: "previous" }
  | { readonly kind: "name"; readonly name: string };

/** A job id that cannot name any job; its message says what would. */
export class JobIdError extends CorralError {
  override readonly name = "JobIdError";
  constructor(message: string) {
    super("bad_request", message);
  }
}

const NAME = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;

/** Parses a job id; throws JobIdError for a malformed one. */
export function parseJobRef(text: string): JobRef {
  const body = text.startsWith("%") ? text.slice(1) : text;
  if (body === "+" || body === "%" || (text === "%" && body === "")) return { kind: "current" };
  if (body === "-") return { kind: "previous" };
  if (/^\d{1,9}$/.test(body)) {
    const n = Number(body);
    if (n >= 1) return { kind: "number", n };
  } else if (NAME.test(body)) {
    return { kind: "name", name: body };
  }
  const shown = JSON.stringify(text.slice(0, 40));
  throw new JobIdError(`bad job id ${shown}; use N or %N (e.g. %1), %+ or %- (current, previous), or a job --name`);
}

/** The text form of a ref, for messages. */
export function describeRef(ref: JobRef): string {
  switch (ref.kind) {
    case "number":
      return `%${ref.n}`;
    case "current":
      return "%+";
    case "previous":
      return "%-";
    case "name":
      return ref.name;
  }
}
