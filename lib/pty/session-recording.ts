// A session's recording: at most one at a time, started with the session
// (`pty open --record`, every byte from the first) or later (`pty record`,
// which first draws the screen as it is so the file plays from its start).
import { CastRecorder, type RecordingSpec, type RecordingStatus } from "./cast-recorder.ts";
import { redrawSequence } from "./screen-ansi.ts";
import type { PtySession } from "./session.ts";

/** The command as a person would type it, for the recording's title. */
export function commandTitle(argv: readonly string[]): string {
  return argv.map((arg) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`)).join(" ");
}

/** The recording slot of one session. */
export class SessionRecording {
  #session: PtySession | undefined;
  #term: string;
  #current: { recorder: CastRecorder; detach: () => void } | undefined;
  /** The last recording that ended (its status goes on changing until its file is closed). */
  #last: CastRecorder | null = null;

  constructor(term: string) {
    this.#term = term;
  }

  /** The status of the current recording, or of the last one. */
  get status(): RecordingStatus | null {
    return (this.#current?.recorder ?? this.#last)?.status ?? null;
  }

  /**
   * Creates the file before the session exists (so a bad path fails the
   * open, not the recording), with the header of the size it will have.
   */
  static async beforeOpen(spec: RecordingSpec, term: string, argv: readonly string[], cols: number, rows: number): Promise<{ slot: SessionRecording; recorder: CastRecorder }> {
    const recorder = await CastRecorder.create(spec);
    recorder.begin({ cols, rows, term, title: commandTitle(argv) });
    return { slot: new SessionRecording(term), recorder };
  }

  /** Wires a recorder whose header is written to a session that has produced no output yet. */
  bind(session: PtySession, recorder: CastRecorder): void {
    this.#session = session;
    this.#wire(recorder);
  }

  /** Adopts the session without recording (a later `pty record` starts one). */
  attach(session: PtySession): void {
    this.#session = session;
  }

  /** Starts recording now: header from the current size, then the screen as it is. Replaces a running one. */
  async start(spec: RecordingSpec): Promise<RecordingStatus> {
    const session = this.#session;
    if (session === undefined) throw new Error("no session to record");
    // The same file again: the running recording must let go of it before it is truncated.
    if (this.#current?.recorder.spec.path === spec.path) await this.stop();
    const recorder = await CastRecorder.create(spec);
    await this.stop();
    await session.atSettledScreen((snapshot, styles) => {
      recorder.begin({ cols: snapshot.size.cols, rows: snapshot.size.rows, term: this.#term, title: commandTitle(session.argv) });
      recorder.outputText(redrawSequence(styles, snapshot));
      if (session.alive) this.#wire(recorder);
      else this.#last = recorder;
    });
    if (!session.alive) await recorder.end();
    return recorder.status;
  }

  /** Ends the current recording (the file stays); resolves once it is closed. */
  async stop(): Promise<RecordingStatus | null> {
    const current = this.#current;
    if (current === undefined) return this.status;
    this.#current = undefined;
    this.#last = current.recorder;
    current.detach();
    await current.recorder.end();
    return current.recorder.status;
  }

  #wire(recorder: CastRecorder): void {
    const session = this.#session as PtySession;
    const offs = [
      session.onOutput((bytes) => recorder.output(bytes)),
      session.onInput((bytes) => recorder.input(bytes)),
      session.onResize((cols, rows) => recorder.resize(cols, rows)),
    ];
    const current = { recorder, detach: () => offs.forEach((off) => off()) };
    this.#current = current;
    // Exit facts come after every byte reached the listeners: the file is complete.
    offs.push(session.onExit(() => {
      if (this.#current === current) void this.stop();
    }));
  }
}
