// JSON Schema pieces several tools share (the exit facts, a session, a job,
// the input of a command to start), written once so that every tool
// describes the same thing the same way, as the agent's JSON shapes do.
import type { JsonSchema } from "../tool.ts";

export const integer = (description: string, minimum = 0) => ({ type: "integer", minimum, description });
export const str = (description: string) => ({ type: "string", description });
export const bool = (description: string) => ({ type: "boolean", description });
export const strings = (description: string) => ({ type: "array", items: { type: "string" }, description });
export const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: "null" }] });

/** An object schema; `required` lists the fields always present. */
export function object(properties: Record<string, unknown>, required: readonly string[] = [], description?: string): JsonSchema {
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), ...(description !== undefined ? { description } : {}) };
}

/** How a program ended (the same `exit` object as `collect --json`). */
export const EXIT_FACTS = object({
  code: nullable({ type: "integer" }),
  signal: nullable({ type: "string" }),
  timedOut: bool("corral's timeout ended the tree"),
  forced: bool("SIGKILL was needed"),
  durationMs: integer("how long it ran"),
  outputComplete: bool("every output pipe reached EOF (false: a descendant kept it open past the grace)"),
}, ["code", "signal", "timedOut", "forced", "durationMs", "outputComplete"], "exit facts");

/** The fields of a tool that starts a command. */
export const COMMAND_INPUT = {
  command: str("A shell command line, run with sh -c (give this or argv)"),
  argv: { type: "array", items: { type: "string" }, minItems: 1, description: "The program and its arguments, no shell (give this or command)" },
  cwd: str("Working directory (default: the server's)"),
  env: { type: "object", additionalProperties: { type: "string" }, description: "Variables to set on top of the (scrubbed) environment" },
};

/** Names of credential-shaped variables kept from the child (never values). */
export const SCRUBBED = strings("Variables left out of the command's environment, names only: credential-shaped ones (the server's --no-scrub passes them) and corral's own settings (CORRAL_*)");

/** Text shaped for a model: what was cut, and where the whole is. */
export const ELISION = nullable(object({
  bytes: integer("bytes of raw output left out between head and tail"),
  lines: integer("lines left out"),
  keptIn: nullable(str("file holding every byte")),
}, ["bytes", "lines", "keptIn"], "what was left out between head and tail (null: nothing)"));

export const SESSION = object({
  id: str("session id"),
  name: nullable(str("session name")),
  pid: integer("the program's pid"),
  argv: strings("the program"),
  alive: bool("still running"),
  exit: nullable(EXIT_FACTS),
  position: integer("bytes the program wrote so far (the output position)"),
  size: object({ cols: integer("columns"), rows: integer("rows") }, ["cols", "rows"]),
  shell: nullable({ type: "string", enum: ["bash", "zsh", "fish", "sh"], description: "the shell hooked for terminal_exec (null: none; terminal_exec refuses the session)" }),
}, ["id", "name", "pid", "argv", "alive", "exit", "position"], "a terminal session (as corral pty list --json shows it)");

export const JOB = object({
  id: str("%N"),
  name: nullable(str("job name")),
  state: { type: "string", enum: ["running", "stopped", "done"] },
  pid: integer("the program's pid"),
  argv: strings("the program"),
  exit: nullable(EXIT_FACTS),
  status: nullable({ type: "integer", description: "exit status once done (128+N for signal N, 124 timeout)" }),
  bytes: integer("bytes of output so far"),
  spill: nullable(str("file holding every byte of output")),
}, ["id", "state", "pid", "argv", "exit", "status", "bytes", "spill"], "a job (as corral jobs --json shows it)");

export const RECEIPT = nullable(object({
  status: { type: "string", enum: ["confirmed", "uncertain"] },
  forced: bool("SIGKILL was needed"),
  reason: nullable(str("why it is uncertain")),
}, ["status", "forced", "reason"]));

/** The waiting fields every waiting tool takes. */
export const WAIT_INPUT = {
  cursor: str("Resume a wait that answered done:false (its cursor); the other fields are then ignored"),
};
export const WAIT_OUTPUT = {
  done: bool("false: the call reached the server's wait cap first; call again with `cursor`"),
  cursor: str("present when done is false: pass it back to resume"),
};
