// Paths in a request from another machine (--host, --via): a program's
// --cwd, a spill file or a recording are there, so a relative path is
// relative to where that machine's `corral connect` runs (the remote home,
// the program's directory by default), not to the caller's directory,
// which may not exist there. The caller sends such paths as given; the far
// connect (cli/commands/connect/framed-relay.ts) makes them absolute, as
// the agent requires.
import path from "node:path";

type Json = Record<string, unknown>;

/** `message` with its relative `cwd` (open, job-start), `spill` and `record.path` made absolute against `cwd`. */
export function pathsHere(message: Json, cwd: string): Json {
  let out = message;
  if ((out.op === "open" || out.op === "job-start") && typeof out.cwd === "string" && out.cwd !== "" && !path.isAbsolute(out.cwd)) {
    out = { ...out, cwd: path.resolve(cwd, out.cwd) };
  }
  if (typeof out.spill === "string" && out.spill !== "" && !path.isAbsolute(out.spill)) {
    out = { ...out, spill: path.resolve(cwd, out.spill) };
  }
  const record = out.record;
  if (typeof record === "object" && record !== null && !Array.isArray(record)) {
    const file = (record as Json).path;
    if (typeof file === "string" && file !== "" && !path.isAbsolute(file)) out = { ...out, record: { ...record, path: path.resolve(cwd, file) } };
  }
  return out;
}
