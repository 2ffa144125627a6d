// The job shapes of the agent's wire contract (issue 5): what job replies
// carry. The job requests and events are in the table (operations.ts).
// Bump PROTOCOL_VERSION (version.ts) if any of these change. Types only.
import type { JobInfo, Receipt } from "../../jobs/job-info.ts";

/** Job rows and receipts travel as lib/jobs defines them. */
export type { JobInfo, Receipt };

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
 * is in operations.ts, beside the session object.
 */
export interface ReapOutcome {
  /** It was still running and reap --all terminated it. */
  readonly terminated: boolean;
  readonly receipt: Receipt;
}

/** A job as reap retired it. */
export type ReapedJob = JobInfo & ReapOutcome;
