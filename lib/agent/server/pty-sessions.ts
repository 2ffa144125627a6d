// The real sessions: lib/pty's PtySession behind the agent's session port.
// This is where lib/pty's errors become the protocol's typed ones. Loaded
// only inside the agent process (it pulls in the emulator and node-pty).
import { AgentError, type ForegroundView } from "../protocol/messages.ts";
import type { AgentSession, OpenSpec, ScreenFollower, SessionFactory, ScreenSnapshot, ScreenOptions, WaitOptions, WaitOutcome } from "./session-port.ts";
import { PtySession } from "../../pty/session.ts";
import type { GuardianMode } from "../../config/schema.ts";
import { CorralError } from "../../core/corral-error.ts";
import type { GuardianLink, SupervisedTree } from "../../supervise/handle.ts";
import { PtySessionError } from "../../pty/snapshot.ts";
import type { ExitFacts } from "../../core/exit-facts.ts";
import type { RecordingSpec, RecordingStatus } from "../protocol/messages.ts";
import { SessionRecording } from "../../pty/session-recording.ts";
import { followScreen } from "../../pty/screen-follow.ts";
import { type CommandRunOptions, type CommandRunResult, runCommand } from "../../pty/command-run.ts";
import type { FinishedCommand } from "../../pty/shell-state.ts";
import type { ShellHook } from "../../pty/shell-integration.ts";
import type { ShellView } from "./session-port.ts";

/** lib/pty's errors as wire errors; anything else is rethrown as is (internal). */
function asAgentError(error: unknown): unknown {
  // UnknownKeyError, SpawnError: each carries its wire code.
  if (error instanceof CorralError && !(error instanceof AgentError)) return new AgentError(error.code, error.message);
  if (error instanceof PtySessionError) {
    return new AgentError(error.code === "exited" || error.code === "closed" ? "session_exited" : "bad_request", error.message);
  }
  return error;
}

async function mapped<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asAgentError(error);
  }
}

class PtyAgentSession implements AgentSession {
  constructor(readonly pty: PtySession, readonly recordings: SessionRecording) {}

  get pid(): number {
    return this.pty.pid;
  }
  get argv(): readonly string[] {
    return this.pty.argv;
  }
  get startedAt(): number {
    return this.pty.createdAt;
  }
  size() {
    const { cols, rows } = this.pty.info();
    return { cols, rows };
  }
  alive(): boolean {
    return this.pty.alive;
  }
  exitFacts(): ExitFacts | null {
    return this.pty.exit;
  }
  position(): number {
    return this.pty.position;
  }
  async write(data: string | Uint8Array): Promise<number> {
    const at = await mapped(() => this.pty.write(data));
    // The reply to a send waits while the program leaves its input untaken:
    // a client streaming stdin sends its next slice at the program's pace.
    await this.pty.inputDrained();
    return at;
  }
  checkKeys(keys: readonly string[]): void {
    try {
      this.pty.checkKeys(keys);
    } catch (error) {
      throw asAgentError(error);
    }
  }
  async sendKeys(keys: readonly string[], typed?: string): Promise<number> {
    const at = await mapped(() => this.pty.sendKeys(keys, typed));
    if (typed !== undefined && typed.length > 0) await this.pty.inputDrained(); // as write(): the sender waits for the program
    return at;
  }
  screen(options: ScreenOptions): Promise<ScreenSnapshot> {
    return mapped(() => this.pty.screen(options));
  }
  cellsHeld(): number {
    return this.pty.cellsHeld();
  }
  lastActive(): number {
    return this.pty.lastActive;
  }
  relieve(cells: number, mayTrim: boolean): number {
    return this.pty.relieve(cells, mayTrim);
  }
  async wait(options: WaitOptions): Promise<WaitOutcome> {
    const { signal, new: newOnly, ...rest } = options;
    const result = await mapped(() => this.pty.wait({ ...rest, ...(newOnly !== undefined ? { newOnly } : {}) }, signal));
    return {
      fired: result.fired,
      ...(result.match !== undefined ? { match: result.match } : {}),
      position: result.position,
      windowExceeded: result.windowExceeded,
    };
  }
  foreground(): Promise<ForegroundView | null> {
    return this.pty.foreground();
  }
  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
  }
  close(options: { graceMs: number; force: boolean }): Promise<ExitFacts | null> {
    return mapped(() => this.pty.close(options));
  }
  onOutput(listener: (bytes: Uint8Array) => void): () => void {
    return this.pty.onOutput(listener);
  }
  onExit(listener: (facts: ExitFacts | null) => void): () => void {
    return this.pty.onExit(listener);
  }
  dispose(): void {
    this.pty.dispose();
  }
  async record(spec: RecordingSpec | null): Promise<RecordingStatus | null> {
    if (spec === null) return this.recordings.stop();
    try {
      return await this.recordings.start(spec);
    } catch (error) {
      throw recordingFileError(spec, error);
    }
  }
  recording(): RecordingStatus | null {
    return this.recordings.status;
  }
  link(): GuardianLink | undefined {
    return this.pty.link;
  }
  follow(onBytes: (bytes: Uint8Array) => void, onResize: (cols: number, rows: number) => void): Promise<ScreenFollower> {
    return followScreen(this.pty, onBytes, onResize);
  }
  shellHook(): ShellHook | undefined {
    return this.pty.shellHook;
  }
  shellView(): ShellView | null {
    const shell = this.pty.shell;
    return shell === null ? null : { cwd: shell.cwd, lastCommand: shell.lastCommand };
  }
  exec(label: string, line: string, options: CommandRunOptions): Promise<CommandRunResult> {
    const pty = this.pty;
    const target = {
      id: label,
      shell: pty.shell,
      get alive() {
        return pty.alive;
      },
      write: (data: string) => pty.write(data),
      onExit: (listener: () => void) => pty.onExit(() => listener()),
      untilWaitingForInput: async (timeoutMs: number, after?: number, signal?: AbortSignal) =>
        (await pty.wait({ ready: true, timeoutMs, ...(after !== undefined ? { after } : {}) }, signal)).fired === "ready",
    };
    return mapped(() => runCommand(target, line, options));
  }
  commandDone(label: string, after: number | "now" | "next", signal: AbortSignal): Promise<FinishedCommand | null> {
    const shell = this.pty.shell;
    if (shell === null) throw new AgentError("no_shell_integration", `session ${label} has no shell integration: --command-done needs a hooked shell`);
    return shell.whenDone(after, signal);
  }
}

/** A recording file that cannot be made: the path and the system's reason, as a bad request. */
function recordingFileError(spec: RecordingSpec, error: unknown): AgentError {
  const code = (error as { code?: unknown })?.code;
  const why = typeof code === "string" ? code : (error as Error)?.message ?? String(error);
  return new AgentError("bad_request", `cannot write the recording ${spec.path}: ${why}`);
}

/**
 * Opens real PTY sessions (guardian backend when built and not refused by
 * `guardian` or $CORRAL_GUARDIAN, else node-pty); the guardians' sockets go
 * in the agent's state dir, which is checked 0700. `orphanWaitMs` bounds how
 * long a guardian waits for a new agent (config `agent.orphan-wait`).
 */
export const ptySessionFactory = (stateDir: string, guardian: GuardianMode = "auto", orphanWaitMs?: number): SessionFactory => async (spec: OpenSpec) => {
  // The recording's file exists before the program starts: a bad path fails the open.
  let recording: Awaited<ReturnType<typeof SessionRecording.beforeOpen>> | undefined;
  if (spec.record !== undefined) {
    try {
      recording = await SessionRecording.beforeOpen(spec.record, spec.term, spec.argv, spec.cols, spec.rows);
    } catch (error) {
      throw recordingFileError(spec.record, error);
    }
  }
  const pty = await mapped(() =>
    PtySession.open({
      argv: spec.argv,
      cwd: spec.cwd,
      env: spec.env,
      cols: spec.cols,
      rows: spec.rows,
      term: spec.term,
      scrollback: spec.scrollback,
      stateDir,
      // The agent's sessions outlive the agent: a new one re-adopts them (issue 11).
      adoptable: true,
      ...(orphanWaitMs !== undefined ? { orphanWaitMs } : {}),
      guardian,
      ...(spec.shellIntegration === false ? { shellIntegration: false } : {}),
    })
  ).catch(async (error: unknown) => {
    await recording?.recorder.end();
    throw error;
  });
  // No output can have been handed out yet: the recording starts at byte 0.
  const slot = recording?.slot ?? new SessionRecording(spec.term);
  if (recording !== undefined) slot.bind(pty, recording.recorder);
  else slot.attach(pty);
  return new PtyAgentSession(pty, slot);
};

/** What lib/agent/adoption needs to rebuild one session around a re-adopted guardian. */
export interface AdoptSpec {
  readonly argv: readonly string[];
  readonly cols: number;
  readonly rows: number;
  readonly scrollback: number;
  readonly term: string;
  readonly createdAt: number;
  readonly backlog: Uint8Array;
  readonly position: number;
  /** The hooked shell, from the session's record. */
  readonly shell?: ShellHook;
  /** The session had ended before this agent: its end as recorded (session-ends.ts). */
  readonly ended?: ExitFacts;
}

/** A session rebuilt around a guardian a previous agent started (its screen replayed from the raw tail). */
export async function adoptPtySession(handle: SupervisedTree, spec: AdoptSpec): Promise<AgentSession> {
  const pty = await PtySession.adopt(
    { argv: spec.argv, env: {}, cols: spec.cols, rows: spec.rows, scrollback: spec.scrollback, term: spec.term, ...(spec.shell !== undefined ? { shell: spec.shell } : {}) },
    handle,
    { backlog: spec.backlog, position: spec.position, createdAt: spec.createdAt, ...(spec.ended !== undefined ? { ended: spec.ended } : {}) },
  );
  const slot = new SessionRecording(spec.term);
  slot.attach(pty);
  return new PtyAgentSession(pty, slot);
}
