// The recording flags `pty open` and `run --tty` share: --record FILE,
// --record-max SIZE, --record-input. Definitions only (this loads with the
// definitions); --record-max is parsed by the shared size parser, and
// cli/shared/record/spec.ts checks the rest when the command runs.
import { MIN_RECORD_BYTES } from "../../../lib/core/recording-spec.ts";
import { parseSizeFlag } from "../flag-parsers.ts";

const text = (input: string): string => input;

/** The parsed shape of the recording flags. */
export interface RecordFlagValues {
  readonly record?: string;
  readonly recordMax?: number;
  readonly recordInput: boolean;
}

/** The flag definitions, spread into a command's flags. */
export const recordFlagDefs = {
  record: { kind: "parsed", parse: text, optional: true, placeholder: "file.cast", brief: "Record the session as asciicast v2 (asciinema play/cat) into FILE" },
  recordMax: { kind: "parsed", parse: parseSizeFlag("--record-max", MIN_RECORD_BYTES), optional: true, placeholder: "size", brief: "Stop recording before FILE passes SIZE (e.g. 10M); a marker event says so" },
  recordInput: { kind: "boolean", default: false, brief: "Record what is typed too (off by default: input may hold passwords)" },
} as const;
