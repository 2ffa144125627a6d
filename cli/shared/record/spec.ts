// Checking the recording flags (exit 2) into the spec the agent gets, with
// the path made absolute against the caller's directory: the agent writes
// the file and has a directory of its own.
import path from "node:path";
import process from "node:process";
import { UsageError } from "../exit-status.ts";
import type { RecordFlagValues } from "./flags.ts";
import type { RecordingSpec } from "../../../lib/pty/cast-recorder.ts";

/**
 * The recording spec the flags ask for, or undefined without --record.
 * `here` false: for another machine's agent, the path goes as given (its
 * connect resolves a relative one there: lib/agent/client/remote/far-paths.ts).
 */
export function recordSpecOf(flags: RecordFlagValues, here = true): RecordingSpec | undefined {
  if (flags.record === undefined) {
    if (flags.recordMax !== undefined || flags.recordInput) {
      throw new UsageError("--record-max and --record-input go with --record FILE, e.g. --record session.cast --record-max 10M");
    }
    return undefined;
  }
  return recordingSpec(flags.record, flags.recordMax, flags.recordInput, here);
}

/** A spec from a file name, a size in bytes (parsed by the flag's parser) and the input switch. */
export function recordingSpec(file: string, maxBytes: number | undefined, input: boolean, here = true): RecordingSpec {
  if (file === "") throw new UsageError("a recording needs a file name, e.g. session.cast");
  return {
    path: here ? path.resolve(process.cwd(), file) : file,
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(input ? { input: true } : {}),
  };
}
