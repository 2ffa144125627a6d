// The seam between a session and whatever owns the PTY master. A session
// never talks to node-pty or the guardian directly: both sit behind this
// interface so the session, the screen and the tests are written once.
import type { Receipt } from "../core/receipt.ts";

/** What a backend needs to start a program on a new PTY. */
export interface PtySpawnRequest {
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The complete environment of the child (already scrubbed, TERM set). */
  readonly env: Readonly<Record<string, string>>;
  readonly cols: number;
  readonly rows: number;
}

/** How the program on the PTY ended, as the backend saw it. */
export interface PtyExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Every byte the program wrote reached onData before this exit was reported. */
  readonly outputComplete: boolean;
}

/** Whom a signal is aimed at: the terminal's foreground job, or everything in the session. */
export type SignalTarget = "foreground" | "tree";

/**
 * How to reach the guardian that owns a session's PTY again (issue 11): a
 * new agent re-adopts it with these. Only adoptable guardian handles have one.
 */
export interface GuardianLink {
  readonly guardianPid: number;
  readonly socket: string;
  readonly token: string;
  readonly child: { readonly pid: number; readonly pgid: number; readonly sid: number; readonly startTime: number };
}

/** One running program on one PTY. */
export interface PtyHandle {
  readonly pid: number;
  /** Present when the PTY's guardian outlives this process and can be re-adopted. */
  readonly link?: GuardianLink | undefined;
  readonly backend: PtyBackendName;
  /** Bytes from the PTY master, in order. Only one listener. */
  onData(listener: (bytes: Uint8Array) => void): void;
  /** Called once, after the last onData of the program's output. */
  onExit(listener: (exit: PtyExit) => void): void;
  write(data: Uint8Array | string): void;
  /** Resolves once the input written so far is on its way (bounded buffering); absent: no backpressure (node-pty). */
  inputDrained?(): Promise<void>;
  resize(cols: number, rows: number): void;
  /** Sends `signal` (e.g. "SIGHUP") to the target; silently nothing when gone. */
  signal(signal: string, target: SignalTarget): void;
  /** SIGTERM the whole tree, SIGKILL what is left after graceMs; resolves when it is gone. */
  terminate(graceMs: number): Promise<Receipt>;
  /** Stop reading the master (flow control) until resume(). */
  pause(): void;
  resume(): void;
  /** Releases the master and any connection; the program must have exited. */
  dispose(): void;
}

/** The backends corral knows; `probe` and `pty list` report which one a session uses. */
export type PtyBackendName = "guardian" | "node-pty";

/** A way of starting programs on PTYs. */
export interface PtyBackend {
  readonly name: PtyBackendName;
  /** Rejects with SpawnError (spawn-error.ts) when the program cannot be started. */
  spawn(request: PtySpawnRequest): Promise<PtyHandle>;
}
