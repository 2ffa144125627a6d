// A typed client for one guardian (native/corral-guardian), once connected:
// it reads the guardian's events and sends it requests. Starting one, or
// reconnecting to one by socket path and token (a restarted agent), is in
// guardian-launch.ts. Works under Node, Deno and Bun: the connection is a
// node:net socket, or under Bun one over Bun's own sockets
// (lib/runtime/bun/guardian-spawn.ts); either is a GuardianSocket here.
// Longer than 300 lines because the request methods and the event dispatch
// share one connection's private state (pending replies, settlers, outbox).
import { FrameDecoder, FrameError, encodeFrame } from "../../core/frame.ts";
import {
  Ev, GUARDIAN_MAX_EVENT_PAYLOAD, Req, SignalTarget, decodeJson, decodeProgress, encodeRequest,
  type ExitedEvent, type ProgressEvent, type FaultEvent, type GuardianErrorEvent, type ReplyEvent, type SignalTargetName,
  type SpawnFailedEvent, type SpilledEvent, type StartedEvent, type StreamId, type TerminateReceipt, type WelcomeEvent,
} from "./protocol.ts";
import { readStat } from "../../proc/stat.ts";
import { signalNumber } from "../../runtime/signals.ts";
import { GuardianInput } from "./input.ts";

/** Events a Guardian emits; listeners added right after spawnGuardian() miss nothing. */
export interface GuardianEvents {
  welcome: (e: WelcomeEvent) => void;
  started: (e: StartedEvent) => void;
  output: (stream: StreamId, bytes: Uint8Array) => void;
  eof: (stream: StreamId) => void;
  stopped: (signal: number) => void;
  continued: () => void;
  exited: (e: ExitedEvent) => void;
  spawnFailed: (e: SpawnFailedEvent) => void;
  /** A spilled stream's last bytes (collect --spill fast path), sent at its EOF. */
  tail: (stream: StreamId, bytes: Uint8Array) => void;
  spilled: (e: SpilledEvent) => void;
  /** A re-adopted guardian's raw tail (after the welcome that announced it with `adopt`). */
  backlog: (stream: StreamId, bytes: Uint8Array) => void;
  /** A captured stream so far (native/capture.c), for a heartbeat. */
  progress: (e: ProgressEvent) => void;
  /** A syscall on a supervision path failed in the guardian (it carries on; the owner reports it). */
  fault: (e: FaultEvent) => void;
  /** The guardian reported a protocol error, or its frames could not be decoded. */
  protocolError: (e: GuardianErrorEvent) => void;
  /** The connection to the guardian closed (the guardian exited, or detach()). */
  close: () => void;
}

/** Failure of a request, with the guardian's error code. */
export class GuardianError extends Error {
  override readonly name = "GuardianError";
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** Options of spawnGuardian besides the launch itself. */
export interface SpawnGuardianOptions {
  /**
   * Directory for the guardian's socket (0700, ours): e.g. ensureStateDir()
   * of lib/agent/client/state-dir.ts. Without one the guardian has no socket
   * and speaks over the socket pair it inherits: nothing can reconnect to it.
   */
  readonly stateDir?: string;
  /** The child's environment (default: this process's). The token is added for the guardian only. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The guardian binary (default: locateGuardian()). */
  readonly binary?: string;
}

/** What a Guardian uses of its connection and of the guardian process it started (lib/runtime/platform.ts). */
export type { PlatformSocket as GuardianSocket, PlatformProcess as GuardianProcess } from "../../runtime/platform.ts";
import type { PlatformSocket as GuardianSocket, PlatformProcess as GuardianProcess } from "../../runtime/platform.ts";

interface Settlers {
  ready: [(w: WelcomeEvent) => void, (e: Error) => void];
  started: [(s: StartedEvent) => void, (e: Error) => void];
  exited: [(e: ExitedEvent) => void, (e: Error) => void];
  closed: () => void;
}

type Listeners = { [K in keyof GuardianEvents]: GuardianEvents[K][] };

/** One guardian and the connection to it. */
export class Guardian {
  /** The guardian's own pid (known once the welcome arrived, or at once when we started it). */
  pid = 0;
  /** The child, once started. */
  child: StartedEvent | undefined;
  /** Resolves with the welcome (the token was accepted). */
  readonly ready: Promise<WelcomeEvent>;
  /** Resolves when the child runs; rejects with GuardianError("spawn-failed") when exec failed. */
  readonly started: Promise<StartedEvent>;
  /** Resolves with waitpid's verdict (in pty mode after the output drain). */
  readonly exited: Promise<ExitedEvent>;
  /** Resolves when the connection closed. */
  readonly closed: Promise<void>;
  /** The process we started (undefined after a reconnect); resolves when it exited. */
  readonly process: GuardianProcess | undefined;
  readonly processExit: Promise<{ code: number | null; signal: string | null }> | undefined;

  #listeners: Listeners = {
    welcome: [], started: [], output: [], eof: [], stopped: [], continued: [], exited: [], spawnFailed: [], tail: [],
    spilled: [], backlog: [], progress: [], fault: [], protocolError: [], close: [],
  };
  #socket: GuardianSocket | undefined;
  #outbox: Uint8Array[] = [];
  #nextId = 1;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #decoder = new FrameDecoder(GUARDIAN_MAX_EVENT_PAYLOAD);
  #isClosed = false;
  #paused = false;
  #settle: Settlers;
  #creditedInput = false;
  /** Input under the guardian's credit (guardian-input.ts). */
  #input = new GuardianInput((bytes) => this.#send(Req.input, bytes));

  /**
   * Set by spawnGuardian for a guardian over an inherited connection: why it
   * went away when that connection closed before the welcome (its exit
   * status and last diagnostics, known once the process exited).
   */
  explainEarlyClose: ((exit: { code: number | null; signal: string | null }) => Error) | undefined;
  #welcomed = false;

  /**
   * Use spawnGuardian() or connectGuardian(). `socketPath`: null when it has
   * none (see SpawnGuardianOptions); such a guardian has no token either ("").
   */
  constructor(readonly socketPath: string | null, readonly token: string, child?: GuardianProcess) {
    const settle: Partial<Settlers> = {};
    this.ready = new Promise((resolve, reject) => (settle.ready = [resolve, reject]));
    this.started = new Promise((resolve, reject) => (settle.started = [resolve, reject]));
    this.exited = new Promise((resolve, reject) => (settle.exited = [resolve, reject]));
    this.closed = new Promise((resolve) => (settle.closed = resolve));
    this.#settle = settle as Settlers;
    for (const p of [this.ready, this.started, this.exited]) p.catch(() => {}); // observed through listeners too
    this.process = child;
    this.processExit = child && new Promise((resolve) => {
      child.on("exit", (code, signal) => resolve({ code, signal }));
      child.on("error", () => resolve({ code: null, signal: null }));
    });
    if (child?.pid) this.pid = child.pid;
  }

  /** Adds a listener. */
  on<K extends keyof GuardianEvents>(event: K, listener: GuardianEvents[K]): this {
    this.#listeners[event].push(listener);
    return this;
  }

  /** Bytes for the child's stdin (pipe mode) or the terminal (pty mode). */
  write(bytes: Uint8Array | string): void {
    this.#input.push(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
  }

  /**
   * Backpressure for senders: resolves once at most `limit` bytes wait in
   * this end's write buffer (the guardian stops reading its owner while the
   * child leaves input untaken, so the buffer only drains at the child's pace).
   */
  async inputDrained(limit: number): Promise<void> {
    await this.#input.drained(limit);
    // A guardian older than v4 reports nothing: then its connection's write buffer is the measure.
    if (this.#creditedInput) return;
    const socket = this.#socket;
    if (socket === undefined) return;
    while (!this.#isClosed && !socket.destroyed && socket.writableLength > limit) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off("drain", done);
          socket.off("close", done);
          resolve();
        };
        socket.once("drain", done);
        socket.once("close", done);
      });
    }
  }

  /** Pipe mode: resolves once every byte written before was delivered and stdin is closed. */
  async closeStdin(): Promise<void> {
    // After every byte written before: what still waits here goes out first.
    await this.#input.drained(0);
    await this.#request(Req.closeStdin, (id) => encodeRequest.id(id));
  }

  /** PTY mode: the terminal's size (clamped to 1..1000); the child gets SIGWINCH. */
  resize(rows: number, cols: number): Promise<void> {
    return this.#request(Req.resize, (id) => encodeRequest.resize(id, rows, cols)).then(() => {});
  }

  /** A signal (name or number) to the child, its foreground process group, or the whole tree. */
  signal(signal: string | number, target: SignalTargetName = "child"): Promise<void> {
    const signo = typeof signal === "number" ? signal : signalNumber(signal);
    if (typeof signal === "string" && signo === 0 && signal !== "0") {
      return Promise.reject(new GuardianError("bad-signal", `unknown signal ${signal}; use a name like SIGTERM`));
    }
    return this.#request(Req.signal, (id) => encodeRequest.signal(id, SignalTarget[target], signo)).then(() => {});
  }

  /**
   * SIGTERM (or `firstSignal`, e.g. a forwarded SIGINT) to the whole tree,
   * SIGKILL what outlives the grace; resolves with the receipt. Idempotent.
   */
  terminate(graceMs: number, firstSignal: string | number = "SIGTERM"): Promise<TerminateReceipt> {
    const signo = firstSignalNumber(firstSignal);
    return this.#request(Req.terminate, (id) => encodeRequest.idGrace(id, graceMs, signo)) as Promise<TerminateReceipt>;
  }

  /** terminate, then the guardian exits. */
  shutdown(graceMs: number, firstSignal: string | number = "SIGTERM"): Promise<TerminateReceipt> {
    const signo = firstSignalNumber(firstSignal);
    return this.#request(Req.shutdown, (id) => encodeRequest.idGrace(id, graceMs, signo)) as Promise<TerminateReceipt>;
  }

  /** The guardian exits and leaves the tree running (`--leave-running`). */
  release(): Promise<void> {
    return this.#request(Req.release, (id) => encodeRequest.id(id)).then(() => {});
  }

  /**
   * Stops reading events (flow control): the guardian's queue fills, then it
   * stops reading the child's output, and the child blocks on its writes.
   */
  pause(): void {
    this.#paused = true;
    this.#socket?.pause();
  }

  /** Reads events again after pause(). */
  resume(): void {
    this.#paused = false;
    this.#socket?.resume();
  }

  /**
   * Closes our connection. The guardian applies its lifeline rule: it waits
   * `lingerMs` for an owner to reconnect, then terminates the tree and exits.
   */
  detach(): void {
    this.#socket?.end();
  }

  /** Internal: wires a connected socket. */
  attach(socket: GuardianSocket): void {
    this.#socket = socket;
    socket.on("data", (chunk: Uint8Array) => this.#receive(chunk));
    socket.on("error", () => {});
    socket.on("close", () => this.#connectionClosed());
    if (this.#paused) socket.pause();
    // Over an inherited socket pair (no socket path) the guardian starts
    // without a token: nobody else holds the other end (native/owner.c).
    if (this.socketPath !== null) socket.write(encodeFrame(Req.auth, new TextEncoder().encode(this.token)));
    for (const frame of this.#outbox) socket.write(frame);
    this.#outbox = [];
  }

  /** The socket to give a new owner for reconnecting: only a guardian started with a socket has one. */
  get reconnectPath(): string {
    if (this.socketPath === null) throw new GuardianError("no-socket", "this guardian was started over an inherited connection and has no socket to reconnect to");
    return this.socketPath;
  }

  #connectionClosed(): void {
    const explain = this.explainEarlyClose;
    if (!this.#welcomed && explain !== undefined && this.processExit !== undefined) {
      // The process's own exit says more than a closed connection (a usage error, a crash).
      void this.processExit.then((exit) => this.#onClose(explain(exit)));
      return;
    }
    this.#onClose();
  }

  /** Internal: the connection could not be made. */
  fail(error: Error): void {
    this.#settle.ready[1](error);
    this.#onClose(error);
  }

  #send(tag: number, body: Uint8Array): void {
    const frame = encodeFrame(tag, body);
    if (this.#isClosed) return;
    if (this.#socket) this.#socket.write(frame);
    else this.#outbox.push(frame);
  }

  #request(tag: number, body: (id: number) => Uint8Array): Promise<unknown> {
    if (this.#isClosed) return Promise.reject(new GuardianError("closed", "the connection to the guardian is closed"));
    const id = this.#nextId++;
    const reply = new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#send(tag, body(id));
    return reply;
  }

  #emit<K extends keyof GuardianEvents>(event: K, ...args: Parameters<GuardianEvents[K]>): void {
    for (const listener of this.#listeners[event]) (listener as (...a: unknown[]) => void)(...args);
  }

  #receive(chunk: Uint8Array): void {
    let frames;
    try {
      frames = this.#decoder.push(chunk);
    } catch (error) {
      const e = error as FrameError;
      this.#emit("protocolError", { code: e.code ?? "bad-frame", message: e.message });
      this.#socket?.destroy();
      return;
    }
    for (const { tag, body } of frames) this.#dispatch(tag, body);
  }

  #dispatch(tag: number, body: Uint8Array): void {
    switch (tag) {
      case Ev.welcome: {
        const w = decodeJson<WelcomeEvent>(body);
        this.pid = w.pid;
        this.#creditedInput = w.version >= 4;
        this.#input.welcome(w.version);
        // The child may have started before the welcome went out: then the welcome says so.
        const child = w.child ? withStartTime(w.child, w.pid) : undefined;
        if (child) this.child = child;
        this.#welcomed = true;
        this.#settle.ready[0](w);
        if (child) this.#settle.started[0](child);
        this.#emit("welcome", w);
        break;
      }
      case Ev.started: {
        const s = withStartTime(decodeJson<StartedEvent>(body), this.pid);
        this.child = s;
        this.#settle.started[0](s);
        this.#emit("started", s);
        break;
      }
      case Ev.output:
      case Ev.tail:
        this.#emit(tag === Ev.output ? "output" : "tail", body[0] as StreamId, body.subarray(1));
        break;
      case Ev.backlog:
        this.#emit("backlog", body[0] as StreamId, body.subarray(1));
        break;
      case Ev.eof:
        this.#emit("eof", body[0] as StreamId);
        break;
      case Ev.stopped:
        this.#emit("stopped", decodeJson<{ signal: number }>(body).signal);
        break;
      case Ev.continued:
        this.#emit("continued");
        break;
      case Ev.exited: {
        const e = decodeJson<ExitedEvent>(body);
        this.#settle.exited[0](e);
        this.#emit("exited", e);
        break;
      }
      case Ev.spawnFailed: {
        const f = decodeJson<SpawnFailedEvent>(body);
        const error = new GuardianError("spawn-failed", f.message);
        this.#settle.started[1](error);
        this.#settle.exited[1](error);
        this.#emit("spawnFailed", f);
        break;
      }
      case Ev.reply: {
        const r = decodeJson<ReplyEvent>(body);
        const waiter = this.#pending.get(r.id);
        this.#pending.delete(r.id);
        if (r.ok) waiter?.resolve(undefined);
        else waiter?.reject(new GuardianError(r.error?.code ?? "failed", r.error?.message ?? "request failed"));
        break;
      }
      case Ev.receipt: {
        const receipt = decodeJson<TerminateReceipt>(body);
        this.#pending.get(receipt.id)?.resolve(receipt);
        this.#pending.delete(receipt.id);
        break;
      }
      case Ev.progress:
        this.#emit("progress", decodeProgress(body));
        break;
      case Ev.spilled:
        this.#emit("spilled", decodeJson<SpilledEvent>(body));
        break;
      case Ev.inputTaken:
        this.#input.taken(new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(0));
        break;
      case Ev.fault:
        this.#emit("fault", decodeJson<FaultEvent>(body));
        break;
      case Ev.error: {
        const e = decodeJson<GuardianErrorEvent>(body);
        this.#settle.ready[1](new GuardianError(e.code, e.message));
        this.#emit("protocolError", e);
        break;
      }
      default:
        this.#emit("protocolError", { code: "unknown-tag", message: `unknown event tag 0x${tag.toString(16)}` });
        this.#socket?.destroy();
    }
  }

  #onClose(error?: Error): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#input.close();
    const reason = error ?? new GuardianError("closed", "the connection to the guardian closed");
    this.#settle.ready[1](reason);
    this.#settle.started[1](reason);
    this.#settle.exited[1](reason);
    for (const waiter of this.#pending.values()) waiter.reject(reason);
    this.#pending.clear();
    this.#settle.closed();
    this.#emit("close");
  }
}

/**
 * The guardian reports 0 as the child's start time when it could not read
 * /proc/PID/stat (a fault, a restricted /proc). Read here instead, while the
 * guardian still parents the child (a pid is not reused before its parent
 * reaps it): the start time is what lets corral tell the child from a
 * stranger later, should it have to end the tree itself (orphaned-tree.ts).
 */
function withStartTime(started: StartedEvent, guardianPid: number): StartedEvent {
  if (started.startTime !== 0) return started;
  const stat = readStat(started.pid);
  return stat !== undefined && stat.ppid === guardianPid ? { ...started, startTime: stat.startTime } : started;
}

/** A terminate's first signal as a number; an unknown name falls back to SIGTERM rather than no signal at all. */
function firstSignalNumber(signal: string | number): number {
  const signo = typeof signal === "number" ? signal : signalNumber(signal);
  return signo > 0 && signo <= 64 ? signo : 15;
}
