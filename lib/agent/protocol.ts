// The agent's wire contract (DESIGN.md 4.6): every request and reply the
// client and the agent exchange, in the one module both import. Runtime
// neutral on purpose (types and constants only).
//
// PROTOCOL_VERSION: bump this if any of these change.
// Longer than 300 lines because every session request and reply is declared here, in one place, until the one-table protocol (issue 10) generates them.
import type { ExitFacts } from "../spawn/exit-facts.ts";
import type { JobReplyBodies, JobRequestUnion, ReapedJob, ReapOutcome } from "./job-protocol.ts";
import type { RecordingSpec, RecordingStatus } from "../pty/cast-recorder.ts";
import type { StyleRun } from "../pty/screen-styles.ts";

export type { RecordingSpec, RecordingStatus } from "../pty/cast-recorder.ts";
export type { StyleRun } from "../pty/screen-styles.ts";

export type * from "./job-protocol.ts";

/** Checked at hello; bump this if any type in this file changes. */
export const PROTOCOL_VERSION = 4;

/** Largest frame either side accepts; checked before any payload is buffered. */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/** Frame tags (lib/native/frame.ts): JSON control messages and raw terminal bytes. */
export const Tag = {
  /** A JSON request, reply or event (UTF-8). */
  json: 1,
  /** Raw terminal bytes, only on a connection switched to attach mode. */
  bytes: 2,
} as const;

/** Why a request failed; clients branch on this, people read the message. */
export type ErrorCode =
  | "bad_request"
  | "unknown_op"
  | "unknown_session"
  | "session_exited"
  | "unknown_job"
  | "unknown_key"
  | "name_taken"
  | "spawn_failed"
  | "command_not_found"
  | "command_not_executable"
  | "timeout"
  | "version_mismatch"
  /** A global budget of the agent (memory) would be passed: agent-budgets.ts. */
  | "limit_exceeded"
  | "internal";

export interface WireError {
  readonly code: ErrorCode;
  readonly message: string;
}

// ---- requests -------------------------------------------------------------

export interface HelloRequest { readonly op: "hello"; readonly version: number }

/** `env` is the complete environment of the session: the client scrubbed it. */
export interface OpenRequest {
  readonly op: "open";
  readonly argv: readonly string[];
  readonly name?: string;
  readonly cols?: number;
  readonly rows?: number;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly term?: string;
  readonly scrollback?: number;
  /** Record the session as asciicast v2 from its first byte (the path is absolute). */
  readonly record?: RecordingSpec;
}

/**
 * Sends `text` literally, then `keys` (named), then `bytes` (base64). With
 * `wait`, then waits as `wait` would with `after` set to where the input went in.
 */
export interface SendRequest {
  readonly op: "send";
  readonly session: string;
  readonly text?: string;
  readonly keys?: readonly string[];
  readonly bytes?: string;
  readonly wait?: WaitConditions;
}

/** The conditions of a wait; the first one met wins. */
export interface WaitConditions {
  readonly text?: readonly string[];
  readonly regex?: readonly string[];
  readonly stableMs?: number;
  readonly ready?: boolean;
  readonly exit?: boolean;
  readonly timeoutMs?: number;
}

export interface ScreenRequest {
  readonly op: "screen";
  readonly session: string;
  readonly since?: string;
  readonly scrollback?: number;
  /** Add `styles`: per visible row, runs of cells with their colours and attributes. */
  readonly styles?: boolean;
}

/** Any combination of conditions; only output after `after` (or after the start, `new`) counts. */
export interface WaitRequest extends WaitConditions {
  readonly op: "wait";
  readonly session: string;
  readonly after?: number;
  readonly new?: boolean;
}

export interface ResizeRequest { readonly op: "resize"; readonly session: string; readonly cols: number; readonly rows: number }

export interface CloseRequest {
  readonly op: "close";
  readonly session: string;
  readonly graceMs?: number;
  readonly force?: boolean;
}

export interface ListRequest { readonly op: "list" }
export interface AgentStatusRequest { readonly op: "agent-status" }
/**
 * What happens to running sessions and jobs (issue 11): "end" them (what a
 * request without the field means: older clients), "keep" them running for
 * the next agent (their guardians wait), or "refuse" to stop while any runs.
 */
export type StopRunning = "end" | "keep" | "refuse";
export interface AgentStopRequest {
  readonly op: "agent-stop";
  readonly running?: StopRunning;
}

/** Switches the connection to attach mode: raw byte frames both ways. */
export interface AttachRequest {
  readonly op: "attach";
  readonly session: string;
  readonly cols?: number;
  readonly rows?: number;
}

/**
 * Starts recording an open session (header from its current size, the
 * screen as it is as the first event), replacing a running recording; with
 * `stop`, ends the running one.
 */
export interface RecordRequest {
  readonly op: "record";
  readonly session: string;
  readonly record?: RecordingSpec;
  readonly stop?: boolean;
}

/**
 * Switches the connection to a read-only stream of the session: the screen
 * as it is, then every byte the program writes, as byte frames; JSON events
 * say when the size changes and when the program exits. Frames sent by the
 * client are ignored.
 */
export interface WatchRequest { readonly op: "watch"; readonly session: string }

/** Sent unprompted on a watching connection when the session's size changes. */
export interface WatchResizeEvent { readonly event: "resize"; readonly cols: number; readonly rows: number }

/** Sent by an attached client when its window changes size. */
export interface AttachResizeMessage { readonly op: "attach-resize"; readonly cols: number; readonly rows: number }

export type Request =
  | HelloRequest
  | OpenRequest
  | SendRequest
  | ScreenRequest
  | WaitRequest
  | ResizeRequest
  | CloseRequest
  | ListRequest
  | AgentStatusRequest
  | AgentStopRequest
  | AttachRequest
  | RecordRequest
  | WatchRequest
  | JobRequestUnion;

export type Op = Request["op"];

/** A request as framed: `id` pairs it with its reply on a connection. */
export type Envelope<T extends Request = Request> = T & { readonly id: number };

// ---- replies --------------------------------------------------------------

/** The terminal's foreground process, and whether it waits for input (null: unknown). */
export interface ForegroundView {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly waitingForInput: boolean | null;
}

/** What `pty screen --json` prints (DESIGN.md 4.4); schemas/screen.schema.json. */
export interface ScreenView {
  readonly id: string;
  readonly name: string | null;
  /** Visible rows top to bottom, trailing spaces trimmed; always size.rows entries. */
  readonly lines: readonly string[];
  /** Lines above the visible rows, oldest first; only when asked for. */
  readonly scrollback?: readonly string[];
  readonly size: { readonly cols: number; readonly rows: number };
  readonly cursor: { readonly row: number; readonly col: number; readonly visible: boolean };
  readonly alternateScreen: boolean;
  readonly title: string;
  /** Hash of the visible contents: equal hashes, equal screens. */
  readonly hash: string;
  /** The screen differs from the last read (or from `since`). */
  readonly changed: boolean;
  readonly alive: boolean;
  readonly exit: ExitFacts | null;
  /** Output position when the screen was read: every byte up to it is on the screen. */
  readonly position: number;
  readonly foreground: ForegroundView | null;
  /** Per visible row, runs of cells drawn alike; only when asked for (`--styles`). */
  readonly styles?: readonly (readonly StyleRun[])[];
  /** The session's recording, running or ended (`stopped` says why one ended early). */
  readonly recording?: RecordingStatus;
  /** Re-adopted by a new agent from a raw tail shorter than its history: may differ until the program redraws. */
  readonly approximate?: boolean;
}

/** A session, the same in every reply (schemas/session.schema.json). */
export interface SessionInfo {
  readonly id: string;
  readonly name: string | null;
  readonly pid: number;
  readonly argv: readonly string[];
  readonly size: { readonly cols: number; readonly rows: number };
  /** Bytes the program has written (monotonic from 0). */
  readonly position: number;
  readonly alive: boolean;
  readonly exit: ExitFacts | null;
  /** Exited and its name was taken by a newer session: reachable by id only. */
  readonly retired: boolean;
  readonly startedAt: number;
  readonly ageMs: number;
  /** Only in `list` and `screen`, where the agent looks it up. */
  readonly foreground?: ForegroundView | null;
}

/** A session as reap retired it: the session object plus what reap did. */
export type ReapedSession = SessionInfo & ReapOutcome;

export type WaitCondition = "text" | "regex" | "stable" | "ready" | "exit";

/** What matched a text or regex condition (schemas/wait.schema.json). */
export interface WaitMatchView {
  readonly kind: "text" | "regex";
  /** Which --text (or --regex), counting from 0 in the order given. */
  readonly index: number;
  readonly pattern: string;
  readonly text: string;
  readonly groups: readonly (string | null)[];
  readonly named: Readonly<Record<string, string | null>>;
  /** Output position just after the match: start the next wait there. */
  readonly position: number;
  readonly from: "stream" | "screen";
}

/** How a wait ended. */
export interface WaitReply {
  readonly fired: WaitCondition;
  readonly match?: WaitMatchView;
  /** Output position when the wait ended. */
  readonly position: number;
  /** Output after the start position had already left the bounded window: part of it was not searched. */
  readonly windowExceeded: boolean;
  readonly screen: ScreenView;
}

export interface ReplyBodies extends JobReplyBodies {
  hello: { readonly version: number; readonly pid: number };
  open: { readonly session: SessionInfo };
  /** `at`: the output position when the input was handed to the terminal. */
  send: { readonly sent: number; readonly at: number; readonly wait?: WaitReply };
  screen: { readonly screen: ScreenView };
  wait: WaitReply;
  /** The session after the resize: its `size` is what the terminal got (clamped). */
  resize: { readonly session: SessionInfo };
  close: { readonly session: SessionInfo };
  list: { readonly sessions: readonly SessionInfo[] };
  /** What was retired: finished (or, with `all`, terminated) jobs and sessions. */
  reap: { readonly jobs: readonly ReapedJob[]; readonly sessions: readonly ReapedSession[] };
  "agent-status": AgentStatus;
  "agent-stop": {
    readonly stopping: boolean;
    readonly sessions: number;
    /** What runs (ended, kept, or the reason for a refusal), by id: sessions "1 (vi)", jobs "%1 (gen)". */
    readonly running: { readonly sessions: readonly string[]; readonly jobs: readonly string[] };
  };
  attach: { readonly session: string; readonly cols: number; readonly rows: number };
  record: { readonly session: SessionInfo; readonly recording: RecordingStatus | null };
  watch: { readonly session: string; readonly cols: number; readonly rows: number };
}

export interface AgentStatus {
  readonly pid: number;
  readonly uptimeMs: number;
  readonly protocolVersion: number;
  readonly sessions: number;
  readonly alive: number;
  readonly memory: { readonly rss: number; readonly heapUsed: number };
  readonly socket: string;
  readonly runtime: string;
}

export type OkReply<O extends Op = Op> = { readonly id: number; readonly ok: true } & ReplyBodies[O];
export interface ErrorReply { readonly id: number; readonly ok: false; readonly error: WireError }
export type Reply<O extends Op = Op> = OkReply<O> | ErrorReply;

/** Sent unprompted on an attached connection when the program exits. */
export interface AttachExitEvent { readonly event: "exit"; readonly exit: ExitFacts | null }

/** A failed request, carried as an exception inside the agent and the client. */
export class AgentError extends Error {
  override readonly name = "AgentError";
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }
  toWire(): WireError {
    return { code: this.code, message: this.message };
  }
}
