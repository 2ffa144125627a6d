// What the agent needs from a terminal session, and nothing more. The real
// sessions come from lib/pty (adapted in pty-sessions.ts); the protocol
// tests plug in a tiny fake, so the agent's routing, framing and lifetime
// rules are tested without a terminal emulator.
import type { ExitFacts } from "../../core/exit-facts.ts";
import type { GuardianLink } from "../../supervise/handle.ts";
import type { ForegroundView, RecordingSpec, RecordingStatus, WaitCondition, WaitMatchView } from "../protocol/messages.ts";
import type { ScreenSnapshot } from "../../pty/snapshot.ts";
import type { CommandRunOptions, CommandRunResult } from "../../pty/command-run.ts";
import type { FinishedCommand } from "../../pty/shell-state.ts";
import type { ShellHook } from "../../pty/shell-integration.ts";

/** The screen as the session reports it, liveness and exit facts included; the agent adds who it is (ScreenView). */
export type { ScreenSnapshot } from "../../pty/snapshot.ts";

/** Everything `open` needs; sizes already clamped and defaults applied. */
export interface OpenSpec {
  readonly argv: readonly string[];
  readonly cols: number;
  readonly rows: number;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly term: string;
  readonly scrollback: number;
  /** Record from the first byte; the file is made before the program starts. */
  readonly record?: RecordingSpec;
  /** false: leave a shell unhooked (`pty open --no-shell-integration`). */
  readonly shellIntegration?: boolean;
}

/** What a hooked shell's marks said last: its directory and last finished command. */
export interface ShellView {
  readonly cwd: string | null;
  readonly lastCommand: FinishedCommand | null;
}

export interface ScreenOptions {
  /** Compare against this hash instead of the last read. */
  readonly since?: string;
  readonly scrollback?: number;
  /** Do not record this read as "the last read" (listing, waiting). */
  readonly peek?: boolean;
  /** Add the colours and attributes of the visible rows. */
  readonly styles?: boolean;
}

/** A read-only follower of a session (`watch`): the screen drawn, then the stream. */
export interface ScreenFollower {
  /** Bytes that paint the screen as it was when following began. */
  readonly redraw: string;
  readonly cols: number;
  readonly rows: number;
  /** Stops the stream. */
  readonly stop: () => void;
}

export interface WaitOptions {
  readonly text?: readonly string[];
  readonly regex?: readonly string[];
  readonly stableMs?: number;
  readonly ready?: boolean;
  readonly exit?: boolean;
  /** Only output after this position counts. */
  readonly after?: number;
  readonly new?: boolean;
  readonly timeoutMs: number;
  /** Aborted when the asking client goes away. */
  readonly signal?: AbortSignal;
}

/** How a wait ended: the condition (or "timeout"), what matched, the position then. */
export interface WaitOutcome {
  readonly fired: WaitCondition | "timeout";
  readonly match?: WaitMatchView;
  readonly position: number;
  readonly windowExceeded: boolean;
}

/** A session as the agent drives it. */
export interface AgentSession {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly startedAt: number;
  size(): { cols: number; rows: number };
  /** The program is still running. */
  alive(): boolean;
  exitFacts(): ExitFacts | null;
  /** Bytes the program has written so far (monotonic from 0). */
  position(): number;
  /** Resolves with the output position when the bytes were handed to the terminal. */
  write(data: string | Uint8Array): Promise<number>;
  /** Throws AgentError unknown_key naming the first unknown key; sends nothing. */
  checkKeys(keys: readonly string[]): void;
  /** Sends named keys (DESIGN.md 4.5), following application-cursor mode, after `typed` text in the same write. */
  sendKeys(keys: readonly string[], typed?: string): Promise<number>;
  screen(options: ScreenOptions): Promise<ScreenSnapshot>;
  /** Resolves with the condition that fired, or "timeout". */
  wait(options: WaitOptions): Promise<WaitOutcome>;
  /** The terminal's foreground process; null when it cannot be known. */
  foreground?(): Promise<ForegroundView | null>;
  resize(cols: number, rows: number): void;
  /** SIGHUP, then terminate after the grace (at once when forced); idempotent. */
  close(options: { graceMs: number; force: boolean }): Promise<ExitFacts | null>;
  /** Raw output as it arrives (for attach); returns the unsubscribe function. */
  onOutput(listener: (bytes: Uint8Array) => void): () => void;
  onExit(listener: (facts: ExitFacts | null) => void): () => void;
  /** Frees the screen of an exited session the agent no longer keeps. */
  dispose?(): void;
  /** Starts (or, with null, stops) recording; resolves with the recording's status. */
  record?(spec: RecordingSpec | null): Promise<RecordingStatus | null>;
  /** The running or last recording. */
  recording?(): RecordingStatus | null;
  /**
   * Paints the screen as it is and then hands every later output byte and
   * size change to the listeners, with nothing lost or repeated between.
   */
  follow?(onBytes: (bytes: Uint8Array) => void, onResize: (cols: number, rows: number) => void): Promise<ScreenFollower>;
  /** How a new agent reaches this session's guardian again (issue 11); absent when it cannot. */
  link?(): GuardianLink | undefined;
  /** Terminal cells held in memory now; absent: the whole cols x (rows + scrollback) is charged. */
  cellsHeld?(): number;
  /** When the screen last had output, a read or a wait (ms since the epoch). */
  lastActive?(): number;
  /** Gives about `cells` back (drops an idle emulator, else the oldest scrollback); the cells freed. */
  relieve?(cells: number, mayTrim: boolean): number;
  /** The shell's hook, when the session's shell is hooked (kept in the record for re-adoption). */
  shellHook?(): ShellHook | undefined;
  /** The hooked shell's directory and last command; null without shell integration. */
  shellView?(): ShellView | null;
  /** Types a command line into the hooked shell and waits for it (`exec`); `label` names the session in errors. */
  exec?(label: string, line: string, options: CommandRunOptions): Promise<CommandRunResult>;
  /**
   * Resolves when the hooked shell finishes a command: the first finish at
   * or after `after`, the next one (`next`), or at once when no command runs
   * (`now`, with the last one, null before any). Rejects without shell integration.
   */
  commandDone?(label: string, after: number | "now" | "next", signal: AbortSignal): Promise<FinishedCommand | null>;
}

/** Makes sessions; throws AgentError spawn_failed when the program cannot start. */
export type SessionFactory = (spec: OpenSpec) => Promise<AgentSession>;
