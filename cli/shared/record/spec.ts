// Checking the recording flags (exit 2) into the spec the agent gets, with
// the path made absolute against the caller's directory: the agent writes
// the file and has a directory of its own.
import path from "node:path";
import process from "node:process";
import { UsageError } from "../exit-status.ts";
import { sizeFlag } from "../flag-parsers.ts";
import type { RecordFlagValues } from "./flags.ts";
import { MIN_RECORD_BYTES, type RecordingSpec } from "../../../lib/pty/cast-recorder.ts";

/** The recording spec the flags ask for, or undefined without --record. */
export function recordSpecOf(flags: RecordFlagValues): RecordingSpec | undefined {
  if (flags.record === undefined) {
    if (flags.recordMax !== undefined || flags.recordInput) {
      throw new UsageError("--record-max and --record-input go with --record FILE, e.g. --record session.cast --record-max 10M");
    }
    return undefined;
  }
  return recordingSpec("--record-max", flags.record, flags.recordMax, flags.recordInput);
}

/** A spec from a file name, a size text and the input switch. */
export function recordingSpec(maxFlag: string, file: string, max: string | undefined, input: boolean): RecordingSpec {
  if (file === "") throw new UsageError("a recording needs a file name, e.g. session.cast");
  const maxBytes = sizeFlag(maxFlag, max, MIN_RECORD_BYTES);
  return {
    path: path.resolve(process.cwd(), file),
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    ...(input ? { input: true } : {}),
  };
}
