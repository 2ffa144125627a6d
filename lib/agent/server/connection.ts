// One client connection inside the agent: frames in, requests validated and
// run one at a time (so replies, and the bytes a run of sends writes, keep
// the client's order), replies out. A bad frame closes only this connection;
// a bad request gets an error reply. Nothing here can take the agent down.
// Fairness (issue 15, item 6): a connection runs at most REQUESTS_PER_TURN
// requests, then yields to the event loop, so every other connection's
// requests get their turn between (round-robin through the loop's check
// queue); a client pipelining thousands of requests delays others by one
// turn, not by its whole burst. Memory: unfinished frames count against the
// agent-wide budget, and a client that does not read its replies has its
// next request wait (and its socket paused) until it does.
import type { Socket } from "node:net";
import { Buffer } from "node:buffer";
import { ADOPTED, eventFrame, FrameDecoder, FrameError, frameJson, inputFrame, jsonFrame, outputFrame, type Frame } from "../protocol/frames.ts";
import type { CommandOutput, CommandRequests } from "./command-line-door.ts";
import { CommandStdin } from "./command-stdin.ts";
import type { AgentContext } from "./agent-context.ts";
import { AgentError, MAX_FRAME_BYTES, PROTOCOL_VERSION, Tag, type AttachExitEvent, type Envelope } from "../protocol/messages.ts";
import { allowedBeforeHello, parseRequest, requestId } from "../protocol/validation.ts";
import { SERVER_CHECKS } from "./request-checks.ts";
import { route } from "./router.ts";
import type { SessionEntry } from "./session-registry.ts";
import { AttachBridge } from "./attach-bridge.ts";
import type { AttachMode } from "./job-terminal.ts";
import type { PendingFrameLedger } from "./agent-budgets.ts";
import { failureOf, ServedRequests } from "./served-requests.ts";

/** Largest output frame of a served command line (the frame limit is far above it). */
const OUTPUT_CHUNK = 64 * 1024;
/** Requests one connection runs before the others get a turn. */
const REQUESTS_PER_TURN = 8;
/** Parsed requests waiting on one connection before its socket is paused (resumed below the half). */
const INBOX_HIGH = 256;

/** Serves one socket until it closes. */
export class AgentConnection {
  #decoder = new FrameDecoder(MAX_FRAME_BYTES);
  /** Parsed requests not yet run, in the client's order. */
  #inbox: unknown[] = [];
  #serving = false;
  #readPaused = false;
  #greeted = false;
  #abort = new AbortController();
  #attach: AttachMode | null = null;
  #pendingAttach: SessionEntry | null = null;
  /** A framing error happened: nothing more is read from this connection. */
  #broken = false;
  #pendingMode: AttachMode | null = null;
  #requests: ServedRequests | undefined;

  constructor(
    readonly socket: Socket,
    readonly ctx: AgentContext,
    readonly log: (line: string) => void,
    readonly frames: PendingFrameLedger,
  ) {
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      // The unfinished frame's buffer goes with the connection (memory-return.ts).
      this.#decoder = new FrameDecoder(MAX_FRAME_BYTES);
      this.frames.release(this);
      this.#inbox = [];
      this.#abort.abort();
      this.#attach?.detach();
      this.#pendingMode?.detach();
      this.input.end();
    });
  }

  /** Ends the connection (agent shutdown). */
  close(): void {
    this.#attach?.detach();
    this.socket.destroy();
  }

  #onData(chunk: Buffer): void {
    if (this.#broken) return;
    let frames: Frame[];
    try {
      frames = this.#decoder.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
    } catch (error) {
      const message = error instanceof FrameError ? error.message : String(error);
      this.#refuse({ code: "bad_request", message: `bad frame: ${message}; closing this connection` });
      return;
    }
    try {
      this.frames.hold(this, this.#decoder.reservedBytes);
    } catch (error) {
      if (!(error instanceof AgentError)) throw error;
      this.#refuse({ code: error.code, message: `${error.message}; closing this connection` });
      return;
    }
    for (const frame of frames) this.#onFrame(frame);
  }

  /** Ends the connection after one error reply; nothing more is read from it. */
  #refuse(error: { code: string; message: string }): void {
    this.#broken = true;
    this.#inbox = [];
    // Nothing more is read: the rest of a refused frame is not taken in only to be thrown away.
    this.socket.pause();
    this.#decoder = new FrameDecoder(MAX_FRAME_BYTES);
    this.frames.release(this);
    this.#send({ id: 0, ok: false, error });
    // The error reply goes out first; a peer that never closes its side is cut off.
    this.socket.end(() => this.socket.destroy());
  }

  #onFrame(frame: Frame): void {
    if (this.#attach !== null) {
      this.#attach.onFrame(frame);
      return;
    }
    if (frame.tag === Tag.input && this.input.take(frame.body)) return;
    if (frame.tag !== Tag.json) {
      this.#send({ id: 0, ok: false, error: { code: "bad_request", message: `frame tag ${frame.tag} is not a JSON request (tag ${Tag.json}); raw bytes only after attach` } });
      return;
    }
    let raw: unknown;
    try {
      raw = frameJson(frame.body);
    } catch {
      this.#send({ id: 0, ok: false, error: { code: "bad_request", message: "frame body is not valid JSON" } });
      return;
    }
    // A served connect's pushed stdin may follow at once, before it runs: it waits for the reads.
    if (isLines(raw)) this.input.expectPushed();
    this.#inbox.push(raw);
    if (this.#inbox.length >= INBOX_HIGH && !this.#readPaused) {
      this.#readPaused = true;
      this.socket.pause();
    }
    void this.#serve();
  }

  /** Runs the inbox in order, a turn at a time, waiting while the client leaves replies unread. */
  async #serve(): Promise<void> {
    if (this.#serving) return;
    this.#serving = true;
    try {
      let turn = 0;
      while (this.#inbox.length > 0 && !this.socket.destroyed) {
        if (turn >= REQUESTS_PER_TURN) {
          turn = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (this.socket.writableLength > this.ctx.budgets.unsentReplyBytes) await this.#repliesTaken();
        const raw = this.#inbox.shift();
        turn++;
        if (this.#readPaused && this.#inbox.length < INBOX_HIGH / 2 && this.#unsentOk()) {
          this.#readPaused = false;
          this.socket.resume();
        }
        await this.#handle(raw);
      }
    } finally {
      this.#serving = false;
      // Nothing left to run: take the client's next requests (a backlog of replies waits at the next one).
      if (this.#readPaused && !this.#broken && !this.socket.destroyed) {
        this.#readPaused = false;
        this.socket.resume();
      }
    }
  }

  #unsentOk(): boolean {
    return this.socket.writableLength <= this.ctx.budgets.unsentReplyBytes;
  }

  /** Backpressure: stop reading this client until it has taken its replies (or gone). */
  async #repliesTaken(): Promise<void> {
    if (!this.#readPaused) {
      this.#readPaused = true;
      this.socket.pause();
    }
    while (!this.#unsentOk() && !this.socket.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.socket.off("drain", done);
          this.socket.off("close", done);
          resolve();
        };
        this.socket.once("drain", done);
        this.socket.once("close", done);
      });
    }
  }

  async #handle(raw: unknown): Promise<void> {
    if (this.socket.destroyed || this.#attach !== null) return;
    const id = requestId(raw);
    try {
      const request = parseRequest(raw, SERVER_CHECKS);
      this.#checkGreeting(request);
      this.ctx.touch();
      const body = await route(this.ctx, request, { connection: this, signal: this.#abort.signal });
      if (request.op === "hello") this.#greeted = true;
      this.#send({ id, ok: true, ...body });
      if (this.#pendingAttach !== null) this.#startAttach(this.#pendingAttach);
      if (this.#pendingMode !== null) [this.#attach, this.#pendingMode] = [this.#pendingMode, null];
    } catch (error) {
      this.#pendingAttach = null;
      this.#pendingMode?.detach();
      this.#pendingMode = null;
      this.#send({ id, ok: false, error: failureOf(error, raw, this.log) });
    } finally {
      this.ctx.touch();
    }
  }

  #checkGreeting(request: Envelope): void {
    if (this.#greeted || allowedBeforeHello(request.op)) return;
    throw new AgentError(
      "bad_request",
      `send a hello with protocol ${PROTOCOL_VERSION} before "${request.op}" (a client of another version: corral agent stop, then retry)`,
    );
  }

  /** A served command line's stdout and stderr, as output frames of at most OUTPUT_CHUNK bytes. */
  readonly output: CommandOutput = {
    write: (fd, bytes) => {
      for (let at = 0; at < bytes.length; at += OUTPUT_CHUNK) this.#write(outputFrame(fd, bytes.subarray(at, at + OUTPUT_CHUNK)));
      return this.#unsentOk();
    },
    drained: () => this.#repliesTaken(),
  };

  /** A served command's stdin (command-stdin.ts). */
  readonly input = new CommandStdin({
    ask: () => this.#write(inputFrame(new Uint8Array(0))),
    adopted: () => this.#write(inputFrame(Uint8Array.of(ADOPTED))),
    gone: () => this.socket.destroyed,
    hold: () => {
      if (this.#readPaused) return;
      this.#readPaused = true;
      this.socket.pause();
    },
    readOn: (always) => {
      // Not while replies back up, unless the command waits on what comes in.
      if (!this.#readPaused || this.#broken || this.socket.destroyed || (!always && !this.#unsentOk())) return;
      this.#readPaused = false;
      this.socket.resume();
    },
  });

  /** A served `connect`'s lines, run as this connection's requests (served-requests.ts). */
  get requests(): CommandRequests {
    return (this.#requests ??= new ServedRequests(this.ctx, { connection: this, signal: this.#abort.signal }, this.log));
  }

  /** AttachTarget: the switch happens after the attach reply is written. */
  attachTo(entry: SessionEntry): void {
    this.#pendingAttach = entry;
  }

  /** JobTerminalTarget: a job's terminal takes the connection once the reply is written. */
  attachMode(mode: AttachMode): void {
    this.#pendingMode = mode;
  }

  #startAttach(entry: SessionEntry): void {
    this.#pendingAttach = null;
    this.#attach = new AttachBridge(entry, this.socket, (event: AttachExitEvent) => {
      this.#write(eventFrame(event));
      this.socket.end();
    });
  }

  #send(reply: object): void {
    this.#write(jsonFrame(reply));
  }

  #write(frame: Uint8Array): void {
    if (this.socket.destroyed || !this.socket.writable) return;
    this.socket.write(frame);
  }
}

/** A served `connect`: a command line whose client pushes its stdin. */
function isLines(raw: unknown): boolean {
  return typeof raw === "object" && raw !== null && (raw as { op?: unknown }).op === "command-line" && (raw as { lines?: unknown }).lines === true;
}
