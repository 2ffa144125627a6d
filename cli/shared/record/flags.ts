// The recording flags `pty open` and `run --tty` share: --record FILE,
// --record-max SIZE, --record-input. Definitions only (this loads at every
// start-up); cli/shared/record/spec.ts checks the values when the command runs.

const text = (input: string): string => input;

/** The parsed shape of the recording flags. */
export interface RecordFlagValues {
  readonly record?: string;
  readonly recordMax?: string;
  readonly recordInput: boolean;
}

/** The flag definitions, spread into a command's flags. */
export const recordFlagDefs = {
  record: { kind: "parsed", parse: text, optional: true, placeholder: "file.cast", brief: "Record the session as asciicast v2 (asciinema play/cat) into FILE" },
  recordMax: { kind: "parsed", parse: text, optional: true, placeholder: "size", brief: "Stop recording before FILE passes SIZE (e.g. 10M); a marker event says so" },
  recordInput: { kind: "boolean", default: false, brief: "Record what is typed too (off by default: input may hold passwords)" },
} as const;
