// The job part of the agent's wire contract (issue 5), kept beside
// protocol.ts, which imports these into its Request and ReplyBodies unions:
// bump PROTOCOL_VERSION there if any of these change. Types only.
import type { JobInfo, Receipt } from "../../jobs/job-info.ts";
import type { RecordingSpec } from "../../pty/cast-recorder.ts";

/** Job rows and receipts travel as lib/jobs defines them. */
export type { JobInfo, Receipt };

/**
 * Starts a job. `env` is the complete environment (the client scrubbed it).
 * `attach`: this connection becomes the job's terminal at once (run --tty),
 * so no byte of output is missed.
 */
export interface JobStartRequest {
  readonly op: "job-start";
  readonly argv: readonly string[];
  readonly name?: string;
  readonly tty: boolean;
  readonly attach?: boolean;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly cols?: number;
  readonly rows?: number;
  readonly headBytes: number;
  readonly maxBytes: number;
  /** Absolute path of the spill file, or absent. */
  readonly spill?: string;
  readonly graceMs: number;
  /** With `tty`: record the job's terminal as asciicast v2 (the path is absolute). */
  readonly record?: RecordingSpec;
}

/** `corral jobs`. */
export interface JobsRequest { readonly op: "jobs" }

/**
 * Reads a job's output by offset, never consuming. `wait`: when nothing is
 * there yet, wait until there is or the job ends (followers).
 */
export interface JobReadRequest {
  readonly op: "job-read";
  readonly job?: string;
  readonly from: number;
  readonly maxBytes?: number;
  readonly wait?: boolean;
  /** Send the bytes as one raw byte frame just before the reply, not as base64 in it (fast; for corral's own client). */
  readonly raw?: boolean;
}

/** Attaches this connection to the job as its terminal, then continues it (`fg`). */
export interface FgRequest {
  readonly op: "fg";
  readonly job?: string;
  readonly cols?: number;
  readonly rows?: number;
}

/** Continues a stopped job without a terminal (`bg`). */
export interface BgRequest { readonly op: "bg"; readonly job?: string }

/** Retires finished jobs and exited sessions; `all` terminates what still runs first. */
export interface ReapRequest {
  readonly op: "reap";
  readonly all?: boolean;
  readonly graceMs?: number;
}

/** Every job request, for protocol.ts's Request union. */
export type JobRequestUnion = JobStartRequest | JobsRequest | JobReadRequest | FgRequest | BgRequest | ReapRequest;

/** One chunk of a job's output as `job-read` returns it. */
export type JobReadReply =
  /** `base64` is absent when the bytes went ahead in a raw byte frame (`raw`). */
  | { readonly kind: "data"; readonly offset: number; readonly nextOffset: number; readonly base64?: string }
  | { readonly kind: "lost"; readonly offset: number; readonly retainedFrom: number; readonly spill: string | null }
  | { readonly kind: "pending" | "eof"; readonly offset: number };

/**
 * What one reap did, on top of the common shape of what it retired: a reaped
 * job is the job object (schemas/job.schema.json) and a reaped session the
 * session object, each with these two fields, so `.jobs[] | select(.id ==
 * "%1")` reads `jobs --json` and `reap --json` alike. The reply to `reap`
 * is in protocol.ts, beside the session object.
 */
export interface ReapOutcome {
  /** It was still running and reap --all terminated it. */
  readonly terminated: boolean;
  readonly receipt: Receipt;
}

/** A job as reap retired it. */
export type ReapedJob = JobInfo & ReapOutcome;

/** Reply bodies of the job ops, for protocol.ts's ReplyBodies. */
export interface JobReplyBodies {
  "job-start": { readonly job: JobInfo };
  jobs: { readonly jobs: readonly JobInfo[] };
  "job-read": { readonly job: JobInfo; readonly read: JobReadReply };
  /** `attached` false: the job had finished, nothing to attach to. */
  fg: { readonly job: JobInfo; readonly attached: boolean };
  bg: { readonly job: JobInfo };
}

/**
 * Sent unprompted on a job's terminal connection when the job stops (the
 * client restores its terminal and exits 148) or ends; the agent closes the
 * connection after it. The job stays in the agent either way.
 */
export interface JobAttachEvent {
  readonly event: "job-stopped" | "job-done";
  readonly job: JobInfo;
}
