// The checks of the job ops (job-start, jobs, job-read, fg, bg, reap), with
// the same helpers and the same `bad_request` wording as every other op.
import type { Request } from "./messages.ts";
import { bad, bool, clean, env, execString, execStrings, int, name, type Obj, optInt, str } from "./validation.ts";
import { recordSpec } from "./record-validation.ts";

const MAX_DIMENSION = 100_000;
const MAX_MS = 2 ** 31 - 1;
/** Sizes up to 1 TiB: the store allocates lazily, so this only stops nonsense. */
const MAX_SIZE = 2 ** 40;

/** Validates the body of a job op; throws AgentError bad_request naming the field. */
export function parseJobBody(op: "job-start" | "jobs" | "job-read" | "fg" | "bg" | "reap", o: Obj): Request {
  switch (op) {
    case "job-start": {
      const argv = execStrings(o, "argv");
      if (argv === undefined || argv.length === 0 || argv[0] === "") throw bad('"argv" must be a non-empty array of strings');
      const spill = str(o, "spill");
      if (spill !== undefined && !spill.startsWith("/")) throw bad('"spill" must be an absolute path');
      const tty = bool(o, "tty");
      if (tty === undefined) throw bad('"tty" must be true or false');
      return clean({
        op,
        argv,
        name: name(o),
        tty,
        attach: bool(o, "attach"),
        cwd: execString(o, "cwd"),
        env: env(o),
        cols: optInt(o, "cols", 1, MAX_DIMENSION),
        rows: optInt(o, "rows", 1, MAX_DIMENSION),
        headBytes: int(o, "headBytes", 0, MAX_SIZE),
        maxBytes: int(o, "maxBytes", 0, MAX_SIZE),
        spill,
        graceMs: int(o, "graceMs", 0, MAX_MS),
        record: recordSpec(o),
      });
    }
    case "jobs":
      return { op };
    case "job-read":
      return clean({
        op,
        job: jobField(o),
        from: int(o, "from", 0, Number.MAX_SAFE_INTEGER),
        maxBytes: optInt(o, "maxBytes", 1, 16 * 1024 * 1024),
        wait: bool(o, "wait"),
        raw: bool(o, "raw"),
      });
    case "fg":
      return clean({ op, job: jobField(o), cols: optInt(o, "cols", 1, MAX_DIMENSION), rows: optInt(o, "rows", 1, MAX_DIMENSION) });
    case "bg":
      return clean({ op, job: jobField(o) });
    case "reap":
      return clean({ op, all: bool(o, "all"), graceMs: optInt(o, "graceMs", 0, MAX_MS) });
  }
}

function jobField(o: Obj): string | undefined {
  const value = str(o, "job");
  if (value !== undefined && (value.length === 0 || value.length > 80)) throw bad('"job" must be a job id like %1 (or absent for the current job)');
  return value;
}
