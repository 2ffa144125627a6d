// The agent's wire contract (DESIGN.md 4.6), the shapes of its replies:
// sessions, screens, waits, the agent's status. The requests, attached
// messages and events are described in the table (operations.ts) and their
// types derived there; this module re-exports them, so a client or the
// agent imports one place. Types and constants only.
//
// PROTOCOL_VERSION (version.ts): bump it if any of these change.
import type { ExitFacts } from "../../core/exit-facts.ts";
import type { ReapOutcome } from "./job-messages.ts";
import type { RecordingStatus } from "../../pty/cast-recorder.ts";
import type { ScreenSnapshot } from "../../pty/snapshot.ts";
import type { WaitMatch } from "../../pty/session-wait.ts";
import type { Op, ReplyBodies } from "./operations.ts";
import type { WireError } from "./errors.ts";

export type { RecordingSpec } from "../../core/recording-spec.ts";
export type { RecordingStatus } from "../../pty/cast-recorder.ts";
export type { StyleRun } from "../../pty/screen-styles.ts";
export type * from "./job-messages.ts";
export type * from "./operations.ts";
export { PROTOCOL_VERSION } from "./version.ts";
export { MAX_FRAME_BYTES, Tag } from "./frames.ts";
export { AgentError, type ErrorCode, type WireError } from "./errors.ts";

// ---- replies --------------------------------------------------------------

/** The terminal's foreground process, and whether it waits for input (null: unknown). */
export interface ForegroundView {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly waitingForInput: boolean | null;
}

/**
 * What `pty screen --json` prints (DESIGN.md 4.4; schemas/screen.schema.json):
 * the session's own snapshot (lib/pty/snapshot.ts: lines, size, cursor, hash,
 * changed, alive, exit, styles) plus who the session is.
 */
export interface ScreenView extends ScreenSnapshot {
  readonly id: string;
  readonly name: string | null;
  /** Output position when the screen was read: every byte up to it is on the screen. */
  readonly position: number;
  readonly foreground: ForegroundView | null;
  /** The session's recording, running or ended (`stopped` says why one ended early). */
  readonly recording?: RecordingStatus;
  /** A hooked shell's working directory, as its last prompt gave it (absent without shell integration). */
  readonly cwd?: string | null;
  /** A hooked shell's last finished command (absent without shell integration; null before the first). */
  readonly lastCommand?: LastCommandView | null;
}

/** The last command a hooked shell finished (`pty screen --json`). */
export interface LastCommandView {
  /** What `pty exec` typed, else what was echoed after the prompt; null when unknown. */
  readonly line: string | null;
  readonly status: number;
  /** When it finished, ms since the epoch. */
  readonly at: number;
}

/** `exec`'s reply (schemas/exec.schema.json). */
export interface ExecReply {
  /** What is shown of the output: all of it, or head, one marker line, tail. */
  readonly output: string;
  /** The exit status as the shell gives it ($?): 128+N when signal N killed the command. */
  readonly status: number;
  /** The signal's name when the status is above 128 (the shell's own reading of it), else null. */
  readonly signal: string | null;
  readonly cwd: string | null;
  readonly durationMs: number;
  /** Output positions of the command's own output in the session's stream. */
  readonly from: number;
  readonly to: number;
  readonly truncated: boolean;
  /** The whole output's size (line ends as LF). */
  readonly bytes: number;
  readonly lines: number;
  readonly spill: string | null;
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
  /** The shell hooked for `exec` (bash, zsh, fish, sh), null when none is. */
  readonly shell: "bash" | "zsh" | "fish" | "sh" | null;
  /** Only in `list` and `screen`, where the agent looks it up. */
  readonly foreground?: ForegroundView | null;
}

/** A session as reap retired it: the session object plus what reap did. */
export type ReapedSession = SessionInfo & ReapOutcome;

export type WaitCondition = "text" | "regex" | "stable" | "ready" | "exit" | "command";

/** What matched a text or regex condition (schemas/wait.schema.json): the session's own match, sent as it is. */
export type WaitMatchView = WaitMatch;

/** How a wait ended. */
export interface WaitReply {
  readonly fired: WaitCondition;
  readonly match?: WaitMatchView;
  /** Output position when the wait ended. */
  readonly position: number;
  /** Output after the start position had already left the bounded window: part of it was not searched. */
  readonly windowExceeded: boolean;
  /** fired "command": the command the hooked shell finished. */
  readonly command?: { readonly status: number; readonly from: number; readonly to: number; readonly cwd: string | null };
  readonly screen: ScreenView;
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
  /**
   * The files the agent was started from were replaced since (an upgrade or
   * a rebuild): it serves no command line; `agent restart` brings up the new
   * ones. Absent from an agent older than this field.
   */
  readonly filesReplaced?: boolean;
}

export type OkReply<O extends Op = Op> = { readonly id: number; readonly ok: true } & ReplyBodies[O];
export interface ErrorReply { readonly id: number; readonly ok: false; readonly error: WireError }
export type Reply<O extends Op = Op> = OkReply<O> | ErrorReply;
