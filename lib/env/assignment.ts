// `--env NAME=VALUE` as typed on a command line. The value may be a secret,
// so a malformed assignment is reported without echoing what was typed.

/** One variable the caller sets explicitly for the child. */
export interface EnvAssignment {
  readonly name: string;
  readonly value: string;
}

/** Thrown for text that is not NAME=VALUE; the message never holds the input. */
export class EnvAssignmentError extends Error {
  override readonly name = "EnvAssignmentError";
}

/** Parses `NAME=VALUE` (the value may be empty and may contain `=`). */
export function parseEnvAssignment(text: string): EnvAssignment {
  const at = text.indexOf("=");
  if (at <= 0) {
    const why = at === 0 ? "the name before \"=\" is empty" : "there is no \"=\"";
    throw new EnvAssignmentError(`--env needs NAME=VALUE (e.g. --env DEBUG=1), but ${why}`);
  }
  const name = text.slice(0, at);
  if (name.includes("\0") || text.includes("\0", at)) {
    throw new EnvAssignmentError("--env needs NAME=VALUE without NUL bytes");
  }
  return { name, value: text.slice(at + 1) };
}
