// What a recording is asked to do (`--record`, the protocol's `record`
// field): shared vocabulary of lib/pty, which records, and the agent's
// protocol, which checks the request before any file is made.

/** The smallest bound that leaves room for a header and a marker. */
export const MIN_RECORD_BYTES = 1024;

/** What a recording is asked to do. */
export interface RecordingSpec {
  /** Absolute path of the .cast file (created or truncated, mode 0600). */
  readonly path: string;
  /** Stop before the file would pass this many bytes; none: no bound. */
  readonly maxBytes?: number;
  /** Record what is typed too ("i" events); off by default: input may hold secrets. */
  readonly input?: boolean;
}
