// One JSON line of `corral connect` made into an agent request, and a reply
// made into a line: the rules both doors apply (the JavaScript CLI's relay,
// impl.ts, and the agent serving the native client's connect,
// served-lines.ts), so a script sees the same replies through either.
import path from "node:path";
import { sessionEnvironment } from "../../../lib/agent/client/open-environment.ts";
import type { CorralConfig } from "../../../lib/config/schema.ts";

export type Json = Record<string, unknown>;

/** Whose line it is: the caller's environment and directory, its config, and whether it goes to another machine. */
export interface LineCaller {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly config: CorralConfig;
  /** The far side's connect fills in its own environment and directory (framed-relay.ts). */
  readonly remote: boolean;
}

/** A request ready for the agent with the ref its reply echoes, or the failure reply the line gets at once. */
export type PreparedLine = { readonly request: Json; readonly ref: unknown } | { readonly failure: Json };

/** What the agent is asked for `line`, or why not. */
export function prepareLine(line: string, caller: LineCaller): PreparedLine {
  let request: Json;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return { failure: failure(undefined, "bad_request", "each line must be one JSON object, e.g. {\"op\":\"list\"}") };
    }
    request = parsed as Json;
  } catch {
    return { failure: failure(undefined, "bad_request", `not a JSON line: ${JSON.stringify(line.slice(0, 60))}`) };
  }
  const { ref, id: _id, ...rest } = request;
  if (rest.op === "attach") return { failure: failure(ref, "bad_request", "attach needs a terminal: use corral pty attach") };
  if (rest.op === "watch") return { failure: failure(ref, "bad_request", "watch turns the connection into a byte stream: use corral pty view") };
  // A recording's file is relative to the caller's directory, as on the command line.
  const record = rest.record as Json | undefined;
  if (typeof record === "object" && record !== null && typeof record.path === "string" && !record.path.startsWith("/")) {
    rest.record = { ...record, path: path.resolve(caller.cwd, record.path) };
  }
  if (typeof rest.session === "number") rest.session = String(rest.session);
  // So is exec's spill file.
  if (rest.op === "exec" && typeof rest.spill === "string" && !rest.spill.startsWith("/")) rest.spill = path.resolve(caller.cwd, rest.spill);
  if (rest.op === "open") {
    const extra = rest.env;
    if (extra !== undefined && (typeof extra !== "object" || extra === null || Array.isArray(extra))) {
      return { failure: failure(ref, "bad_request", '"env" must be an object of NAME: value strings') };
    }
    const set = Object.entries((extra ?? {}) as Json).map(([name, value]) => ({ name, value: value as string }));
    if (!caller.remote) {
      rest.env = sessionEnvironment(caller.env, caller.config, set, typeof rest.term === "string" ? rest.term : undefined);
      rest.cwd ??= caller.cwd;
    }
  }
  return { request: rest, ref };
}

/** A reply made here: `{ref?, ok: false, error}`. */
export function failure(ref: unknown, code: string, message: string): Json {
  const reply = { ok: false, error: { code, message } };
  return ref === undefined ? reply : { ref, ...reply };
}
