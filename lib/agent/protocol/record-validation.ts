// Checks of the recording and watching fields of requests (open's `record`,
// `record`, `watch`), apart from request-validation.ts so that file keeps
// to the core operations.
import type { RecordingSpec, Request } from "./messages.ts";
import { bad, bool, clean, type Obj, optInt, str } from "./validation.ts";
import { MIN_RECORD_BYTES } from "../../pty/cast-recorder.ts";

/** An optional `record` object: {path (absolute), maxBytes?, input?}. */
export function recordSpec(o: Obj): RecordingSpec | undefined {
  const value = o.record;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw bad('"record" must be an object {path, maxBytes?, input?}');
  const r = value as Obj;
  const path = str(r, "path");
  if (path === undefined || !path.startsWith("/") || path.includes("\0")) throw bad('"record.path" must be an absolute file path');
  return clean({
    path,
    maxBytes: optInt(r, "maxBytes", MIN_RECORD_BYTES, Number.MAX_SAFE_INTEGER),
    input: bool(r, "input"),
  }) as unknown as RecordingSpec;
}

/** The `record` and `watch` operations. */
export function parseRecordBody(op: "record" | "watch", o: Obj, session: string): Request {
  if (op === "watch") return { op, session };
  const record = recordSpec(o);
  const stop = bool(o, "stop");
  if ((record === undefined) === (stop !== true)) throw bad('"record" needs either a "record" object or "stop": true');
  return clean({ op, session, record, stop });
}
