// A terminal session as the agent holds it: a program on a PTY (through a
// backend), its screen, keys, waits, resize and close. The agent owns ids
// and names: it passes `id` in the spec (a default `s<n>` is made otherwise).
// Longer than 300 lines because the session is where the screen, waits, input, resize and the end (close, exit facts) of one SupervisedTree (lib/supervise/handle.ts) meet; where its output goes is session-output.ts's.
import type { ExitFacts } from "../core/exit-facts.ts";
import type { GuardianLink, TreeExit, SupervisedTree } from "../supervise/handle.ts";
import type { Receipt } from "../core/receipt.ts";
import { choosePtyBackend } from "../supervise/start.ts";
import { encodeKeys, validateKeys } from "./keys.ts";
import { Screen } from "./screen.ts";
import { clampDimension } from "./screen-size.ts";
import { type CloseOptions, type PtySessionSpec, type ScreenReadOptions, spawnRequestOf } from "./session-spec.ts";
import { type WaitCondition, type WaitResult, waitOnScreen } from "./session-wait.ts";
import { PtySessionError, type ScreenSnapshot, type SessionInfo } from "./snapshot.ts";
import { type Foreground, ForegroundReader } from "./foreground.ts";
import type { StyleRun } from "./screen-styles.ts";
import { hookedRequest, type ShellHook, shellKindOf } from "./shell-integration.ts";
import { newNonce } from "./shell-marks.ts";
import type { ShellState } from "./shell-state.ts";
import { SessionOutput } from "./session-output.ts";

// The spec types are part of the session's API: importable from here too.
export type { CloseOptions, PtySessionSpec, ScreenReadOptions } from "./session-spec.ts";

let nextId = 1;

/** What a re-adopted session starts from: the guardian's raw tail, ending at the output position. */
export interface AdoptedOutput {
  readonly backlog: Uint8Array;
  readonly position: number;
  readonly createdAt: number;
  /**
   * The session had ended before this agent took it in (its end was written
   * down by the agent that saw it, or found while no agent held it): these
   * facts are its end as they were, told as they are.
   */
  readonly ended?: ExitFacts;
}

/** Grace for what a program that exited by itself left running in its terminal. */
const LEFTOVER_GRACE_MS = 2000;

/** One PTY session. */
export class PtySession {
  readonly id: string;
  readonly name: string | null;
  readonly argv: readonly string[];
  readonly createdAt: number;
  #handle: SupervisedTree;
  #screen: Screen;
  #exit: ExitFacts | null = null;
  #exitRaw: TreeExit | undefined;
  #termination: Receipt | undefined;
  #closing: Promise<ExitFacts> | undefined;
  #lastReadHash: string | undefined;
  #exitListeners = new Set<(facts: ExitFacts) => void>();
  /** What was typed and size changes, for a recording. */
  #inputListeners = new Set<(bytes: string | Uint8Array) => void>();
  #resizeListeners = new Set<(cols: number, rows: number) => void>();
  #exitSeen: Promise<void>;
  /** Marks to the shell, then the screen, the stream window and listeners (session-output.ts). */
  readonly #output: SessionOutput;
  #cols: number;
  #rows: number;
  #disposed = false;
  /** Reads the terminal's foreground through kept /proc descriptors; made on first use. */
  #foregroundReader: ForegroundReader | undefined;
  /** The end a previous agent recorded (AdoptedOutput.ended). */
  #ended: ExitFacts | undefined;

  private constructor(spec: PtySessionSpec, handle: SupervisedTree, screen: Screen, cols: number, rows: number, adopted?: AdoptedOutput) {
    this.createdAt = adopted?.createdAt ?? Date.now();
    this.#output = new SessionOutput(screen, spec.shell, adopted);
    this.#ended = adopted?.ended;
    this.id = spec.id ?? `s${nextId++}`;
    this.name = spec.name ?? null;
    this.argv = [...spec.argv];
    this.#handle = handle;
    this.#screen = screen;
    this.#cols = cols;
    this.#rows = rows;
    handle.on("output", (bytes) => this.#output.take(bytes));
    this.#exitSeen = new Promise((resolve) => {
      handle.on("exit", (exit) => {
        this.#exitRaw = exit;
        this.#output.flushMarks();
        // Exit facts appear only once every byte before the exit is on the screen.
        void screen.settled().then(() => {
          this.#output.stream.finish();
          this.#recordExit();
          resolve();
          // What the program left running goes too, and the backend lets go of
          // the terminal (the guardian exits); the screen stays readable.
          void this.close({ graceMs: LEFTOVER_GRACE_MS });
        });
      });
    });
  }

  /** Starts `spec.argv` on a new PTY; rejects with SpawnError when it cannot start. */
  static async open(spec: PtySessionSpec): Promise<PtySession> {
    const request = spawnRequestOf(spec);
    const { cols, rows } = request;
    const backend = typeof spec.backend === "object" ? spec.backend : await choosePtyBackend(spec.backend ?? "auto", {
        ...(spec.stateDir !== undefined ? { stateDir: spec.stateDir } : {}),
        ...(spec.guardian !== undefined ? { guardian: spec.guardian } : {}),
        adoptable: spec.adoptable === true,
        ...(spec.orphanWaitMs !== undefined ? { orphanWaitMs: spec.orphanWaitMs } : {}),
      });
    let handle: SupervisedTree | undefined;
    const screen = await Screen.create({
      cols,
      rows,
      ...(spec.scrollback !== undefined ? { scrollback: spec.scrollback } : {}),
      onReply: (reply) => handle?.write(reply),
      onPressure: (paused) => (paused ? handle?.pause() : handle?.resume()),
    });
    const kind = spec.shellIntegration === false ? null : shellKindOf(spec.argv);
    const shell: ShellHook | undefined = kind === null ? undefined : { kind, nonce: newNonce() };
    try {
      handle = await backend.spawn(shell === undefined ? request : hookedRequest(request, shell, spec.stateDir));
    } catch (error) {
      screen.dispose();
      throw error;
    }
    return new PtySession(shell === undefined ? spec : { ...spec, shell }, handle, screen, cols, rows);
  }

  /**
   * Rebuilds a session around a guardian another agent started (issue 11):
   * the raw tail the guardian kept is replayed into a fresh emulator (its
   * terminal queries are not answered again: the program had its answers),
   * and the output position continues where the guardian counts it.
   */
  static async adopt(spec: PtySessionSpec, handle: SupervisedTree, adopted: AdoptedOutput): Promise<PtySession> {
    const cols = clampDimension(spec.cols, 80);
    const rows = clampDimension(spec.rows, 24);
    let replaying = true;
    const screen = await Screen.create({
      cols,
      rows,
      ...(spec.scrollback !== undefined ? { scrollback: spec.scrollback } : {}),
      onReply: (reply) => {
        if (!replaying) handle.write(reply);
      },
      onPressure: (paused) => (paused ? handle.pause() : handle.resume()),
    });
    const session = new PtySession(spec, handle, screen, cols, rows, adopted);
    screen.feed(session.#output.replayed(adopted));
    await screen.settled();
    replaying = false;
    return session;
  }

  /** The hooked shell (`pty exec`), or null when the session has no shell integration. */
  get shell(): ShellState | null {
    return this.#output.shell;
  }

  /** The hook this session's shell was started with (kept in the session's record, for re-adoption). */
  get shellHook(): ShellHook | undefined {
    const shell = this.#output.shell;
    return shell === null ? undefined : { kind: shell.kind, nonce: shell.nonce };
  }

  /** How a new agent reaches this session's guardian again; undefined when it cannot (node-pty, not adoptable). */
  get link(): GuardianLink | undefined {
    return this.#handle.link;
  }

  get pid(): number {
    return this.#handle.pid;
  }

  /** The program is running (its exit has not been recorded). */
  get alive(): boolean {
    return this.#exit === null;
  }

  /** Exit facts once the program ended, else null. */
  get exit(): ExitFacts | null {
    return this.#exit;
  }

  /** Bytes the program has written so far: the output position (monotonic, from 0). */
  get position(): number {
    return this.#output.stream.position;
  }

  /** Sends bytes to the program as typed; returns the output position at that moment. */
  write(data: string | Uint8Array): number {
    this.#assertRunning();
    const at = this.position;
    this.#handle.write(data);
    for (const listener of this.#inputListeners) listener(data);
    return at;
  }

  /** Resolves once what was written is on its way to the program (bounded buffering; backpressure for senders). */
  async inputDrained(): Promise<void> {
    await this.#handle.inputDrained?.();
  }

  /**
   * Sends named keys (every name is checked before anything is sent), after
   * `typed` text when given, in one write: the program gets text and keys
   * in one read, and its echo comes back in fewer chunks. Resolves with the
   * output position when they went in.
   */
  async sendKeys(names: readonly string[], typed = ""): Promise<number> {
    this.#assertRunning();
    // Only cursor keys depend on a mode the program sets (DECCKM): for them the
    // mode must reflect every byte received so far, so they wait for the
    // parse; other keys go at once (the parse is not on a send's path).
    const normal = encodeKeys(names, { applicationCursor: false });
    const application = encodeKeys(names, { applicationCursor: true });
    let encoded = normal;
    if (application !== normal) {
      await this.#screen.settled();
      if (this.#screen.applicationCursor) encoded = application;
    }
    const bytes = typed + encoded;
    this.#assertRunning();
    const at = this.position;
    this.#handle.write(bytes);
    for (const listener of this.#inputListeners) listener(bytes);
    return at;
  }

  /** Throws UnknownKeyError naming the first unknown key; sends nothing. */
  checkKeys(names: readonly string[]): void {
    validateKeys(names);
  }

  /**
   * The screen after every byte so far is parsed. `changed` compares with
   * `since` when given, else with the last read; the read becomes the last
   * read unless `peek` is set.
   */
  async screen(options: ScreenReadOptions & { styles?: boolean } = {}): Promise<ScreenSnapshot> {
    await this.#screen.settled();
    const snapshot = this.#snapshot(options);
    return options.styles === true ? { ...snapshot, styles: this.#screen.styles() } : snapshot;
  }

  /**
   * Calls `read` with the screen (and its styles) at a moment when every byte
   * received is parsed, before any further output is handed to listeners:
   * what a recording started late draws first, and then continues from.
   */
  async atSettledScreen<T>(read: (snapshot: ScreenSnapshot, styles: StyleRun[][]) => T): Promise<T> {
    do await this.#screen.settled(); while (!this.#screen.isSettled);
    return read(this.#snapshot({ peek: true }), this.#screen.styles());
  }

  /** What is typed into the session (text, keys, attached terminals); returns the unsubscribe function. */
  onInput(listener: (bytes: string | Uint8Array) => void): () => void {
    this.#inputListeners.add(listener);
    return () => this.#inputListeners.delete(listener);
  }

  /** Size changes; returns the unsubscribe function. */
  onResize(listener: (cols: number, rows: number) => void): () => void {
    this.#resizeListeners.add(listener);
    return () => this.#resizeListeners.delete(listener);
  }

  #snapshot(options: ScreenReadOptions): ScreenSnapshot {
    const grid = this.#screen.grid(options.scrollback ?? 0);
    const against = options.since ?? this.#lastReadHash;
    if (options.peek !== true) this.#lastReadHash = grid.hash;
    const trimmed = this.#screen.scrollbackTrimmed;
    return {
      ...grid,
      alive: this.alive,
      exit: this.#exit,
      changed: grid.hash !== against,
      ...(this.#output.approximate ? { approximate: true } : {}),
      ...(trimmed > 0 ? { scrollbackTrimmed: trimmed } : {}),
    };
  }

  /** Terminal cells the screen holds in memory now (Screen.cellsHeld). */
  cellsHeld(): number {
    return this.#screen.cellsHeld();
  }

  /** When the screen last had output, a read or a wait. */
  get lastActive(): number {
    return this.#screen.lastActive;
  }

  /** Gives about `cells` back under the agent's screen budget (Screen.relieve); the cells freed. */
  relieve(cells: number, mayTrim = true): number {
    return this.#screen.relieve(cells, mayTrim);
  }

  /** Raw output as it arrives (for attach); returns the unsubscribe function. */
  onOutput(listener: (bytes: Uint8Array) => void): () => void {
    return this.#output.onOutput(listener);
  }

  /** Waits for text, regex, a stable screen, readiness or the exit; see WaitCondition. */
  wait(cond: WaitCondition, signal?: AbortSignal): Promise<WaitResult> {
    return waitOnScreen({
      screen: this.#screen,
      stream: this.#output.stream,
      hasExited: () => this.#exit !== null,
      onExit: (listener) => this.onExit(() => listener()),
      takeSnapshot: () => this.#snapshot({ peek: true }),
      isReady: async () => {
        if ((await this.foreground())?.waitingForInput !== true) return false;
        // Blocked on its terminal, the program has written all it will until it gets input; those
        // bytes may still sit in the terminal on a loaded machine: the wait must see them first.
        await this.#handle.outputBarrier?.();
        return true;
      },
      promptDrawn: () => {
        const shell = this.#output.shell;
        return shell !== null && shell.atPromptEnd && !shell.lineHoldsText;
      },
    }, cond, signal);
  }

  /** The terminal's foreground process and whether it waits for input; null once exited or where unknown. */
  foreground(): Promise<Foreground | null> {
    if (this.#exit !== null) return Promise.resolve(null);
    this.#foregroundReader ??= new ForegroundReader(this.pid);
    return Promise.resolve(this.#foregroundReader.read());
  }

  /** New size, clamped to 1..1000; the next read reports a change. */
  resize(cols: number, rows: number): { cols: number; rows: number } {
    this.#cols = clampDimension(cols, this.#cols);
    this.#rows = clampDimension(rows, this.#rows);
    if (this.alive) this.#handle.resize(this.#cols, this.#rows);
    this.#screen.resize(this.#cols, this.#rows);
    for (const listener of this.#resizeListeners) listener(this.#cols, this.#rows);
    return { cols: this.#cols, rows: this.#rows };
  }

  /** Listing facts; never consumes a pending change. */
  info(): SessionInfo {
    return {
      id: this.id,
      name: this.name,
      pid: this.pid,
      argv: this.argv,
      cols: this.#cols,
      rows: this.#rows,
      alive: this.alive,
      exit: this.#exit,
      createdAt: this.createdAt,
      backend: this.#handle.backend,
      outputBytes: this.#screen.bytesFed,
      position: this.position,
      hydrated: this.#screen.hydrated,
    };
  }

  /** Called once with the exit facts (at once if already exited); returns an unsubscribe. */
  onExit(listener: (facts: ExitFacts) => void): () => void {
    if (this.#exit !== null) {
      listener(this.#exit);
      return () => {};
    }
    this.#exitListeners.add(listener);
    return () => this.#exitListeners.delete(listener);
  }

  /**
   * Ends the session: SIGHUP (what a closing terminal sends), then after the
   * grace SIGTERM to the whole tree, then SIGKILL; `force` kills at once.
   * Idempotent; resolves with the exit facts once the tree is gone.
   */
  close(options: CloseOptions = {}): Promise<ExitFacts> {
    const graceMs = Math.max(0, options.graceMs ?? 2000);
    this.#closing ??= (async () => {
      if (this.#exit === null) {
        if (options.force === true) {
          this.#termination = await this.#handle.terminate(0);
        } else {
          void this.#handle.signal("SIGHUP", "tree");
          if (!(await this.#exitedWithin(graceMs))) this.#termination = await this.#handle.terminate(graceMs);
        }
      }
      await this.#exitSeen;
      // Whatever the program left behind in its session goes too.
      const rest = await this.#handle.terminate(options.force === true ? 0 : graceMs);
      const forced = this.#termination?.forced === true || rest.forced;
      // The exit may have been recorded before the kill was known to be needed.
      if (forced && this.#exit !== null && !this.#exit.forced) this.#exit = { ...this.#exit, forced: true };
      this.#handle.dispose();
      return this.#exit as ExitFacts;
    })();
    return this.#closing;
  }

  /** Frees the screen; the session must be closed. The agent calls this when it reaps. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    // close() is idempotent: after a natural exit it has already run (or is running).
    void this.close({ force: true }).then(() => this.#screen.dispose());
  }

  async #exitedWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const result = await Promise.race([this.#exitSeen.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return result;
  }

  #recordExit(): void {
    const raw = this.#exitRaw;
    if (raw === undefined || this.#exit !== null) return;
    this.#exit = this.#ended ?? {
      code: raw.code,
      signal: raw.signal,
      timedOut: false,
      forced: this.#termination?.forced ?? false,
      durationMs: Date.now() - this.createdAt,
      outputComplete: raw.outputComplete,
      ...(raw.supervisorLost !== undefined ? { supervisorLost: raw.supervisorLost } : {}),
      ...(raw.unknownWhy !== undefined ? { unknownWhy: raw.unknownWhy } : {}),
    };
    // Its /proc files are of no use any more: let go of the kept descriptors.
    this.#foregroundReader?.close();
    for (const listener of this.#exitListeners) listener(this.#exit);
    this.#exitListeners.clear();
  }

  #assertRunning(): void {
    if (this.#disposed) throw new PtySessionError("closed", `session ${this.id} is closed`);
    if (this.#exit !== null) throw new PtySessionError("exited", `session ${this.id} has exited; its screen can still be read`);
  }
}
