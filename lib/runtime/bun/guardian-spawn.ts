// Starting a guardian over the connection it inherits as fd 3 (run and
// collect: no socket, no token) with Bun's own API. Under Bun,
// node:child_process and node:net cost about 20 ms of a start before they
// do anything (`bun` of a spawn of `sh` with a socket pair at fd 3 and a
// reader on it, N=21: 34-36 ms wall through node:child_process and
// node:net, 14 ms through Bun.spawn's "socket-fd" and Bun.connect({ fd }),
// bare start 12): about half of what `corral run` cost Bun over its bare
// start. The guardian is the same program with the same arguments; only
// the two objects a Guardian holds (guardian-client.ts: GuardianProcess,
// GuardianSocket) are made here, with the parts of ChildProcess and
// net.Socket it uses.
import { EventListeners } from "../event-listeners.ts";
import type { PlatformProcess as GuardianProcess, PlatformSocket as GuardianSocket } from "../platform.ts";

/** What this file uses of Bun's API (no Bun types in this project). */
interface BunSubprocess {
  readonly pid: number;
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  readonly stdio: readonly (number | null)[];
  readonly stderr: ReadableStream<Uint8Array> | number | null | undefined;
  kill(signal?: number | string): void;
}

interface BunSocket {
  write(data: Uint8Array): number;
  pause(): void;
  resume(): void;
  end(): void;
  terminate(): void;
}

interface BunSocketHandler {
  data?(socket: BunSocket, data: Uint8Array): void;
  drain?(socket: BunSocket): void;
  end?(socket: BunSocket): void;
  close?(socket: BunSocket, error?: Error): void;
  error?(socket: BunSocket, error: Error): void;
}

type BunStdio = "inherit" | "ignore" | "pipe" | "socket-fd" | number;

interface BunApi {
  spawn(argv: string[], options: { env: Record<string, string | undefined>; stdio: BunStdio[] }): BunSubprocess;
  connect(options: { fd: number; socket: BunSocketHandler }): Promise<BunSocket>;
}

/** A guardian started under Bun: its process, its connection (once open), and its diagnostics as they come. */
export interface BunGuardianStart {
  readonly process: GuardianProcess;
  /** Resolves with the open connection; rejects when the guardian could not be started or connected. */
  readonly connection: Promise<GuardianSocket>;
}

/**
 * Starts `binary` with `argv` and the stdio node:child_process would be
 * given (`stdio[3]` is "pipe": the socket pair the guardian owns through);
 * `diagnostics` hears the guardian's stderr when that is "pipe". Null when
 * this Bun has no "socket-fd" stdio (nothing was started).
 */
export function spawnGuardianUnderBun(
  binary: string,
  argv: readonly string[],
  env: Record<string, string | undefined>,
  stdio: readonly ("inherit" | "ignore" | "pipe" | number)[],
  diagnostics: (text: string) => void,
): BunGuardianStart | null {
  const bun = (globalThis as unknown as { readonly Bun: BunApi }).Bun;
  const process = new BunGuardianProcess();
  let child: BunSubprocess;
  try {
    child = bun.spawn([binary, ...argv], { env, stdio: stdio.map((s, fd): BunStdio => (fd === 3 && s === "pipe" ? "socket-fd" : s)) });
  } catch (error) {
    // A Bun without "socket-fd" (1.2 has none) refuses the stdio before it starts anything: node:child_process then.
    if ((error as { code?: unknown }).code === "ERR_INVALID_ARG_TYPE") return null;
    // As node:child_process reports it: an "error" event, a turn later.
    const failure = error instanceof Error ? error : new Error(String(error));
    queueMicrotask(() => process.emit("error", failure));
    return { process, connection: Promise.reject(failure) };
  }
  process.started(child);
  if (child.stderr !== null && child.stderr !== undefined && typeof child.stderr !== "number") void readText(child.stderr, diagnostics);
  const fd = child.stdio[3];
  if (typeof fd !== "number") return { process, connection: Promise.reject(new Error("Bun.spawn gave no socket at fd 3")) };
  return { process, connection: connectOwnerSocket(bun, fd) };
}

/** Each chunk of `stream` as text, to `heard`. */
async function readText(stream: ReadableStream<Uint8Array>, heard: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      heard(decoder.decode(value, { stream: true }));
    }
  } catch {
    // the guardian is gone; what it said is what was heard
  }
}

/** The guardian process, as a ChildProcess's "exit" and "error" events and kill() show it. */
class BunGuardianProcess extends EventListeners implements GuardianProcess {
  pid: number | undefined;
  #child: BunSubprocess | undefined;

  started(child: BunSubprocess): void {
    this.#child = child;
    this.pid = child.pid;
    void child.exited.then(() => this.emit("exit", child.exitCode, child.signalCode));
  }

  kill(signal?: NodeJS.Signals | number): boolean {
    if (this.#child === undefined) return false;
    try {
      this.#child.kill(signal);
      return true;
    } catch {
      return false;
    }
  }
}

async function connectOwnerSocket(bun: BunApi, fd: number): Promise<GuardianSocket> {
  const socket = new BunGuardianSocket();
  socket.open(
    await bun.connect({
      fd,
      socket: {
        // A copy: Bun reuses the buffer it hands over, and the decoder keeps partial frames.
        data: (_socket, data) => socket.emit("data", new Uint8Array(data)),
        drain: () => socket.flush(),
        // The guardian ended its side: so do we, as net.Socket does (allowHalfOpen false).
        end: (s) => s.end(),
        error: (_socket, error) => socket.emit("error", error),
        close: () => socket.closed(),
      },
    }),
  );
  return socket;
}

/**
 * Bun's socket as net.Socket's events show it. Bun's write() takes what the
 * kernel takes now and returns the count; the rest waits here, in order,
 * for the socket's drain ("drain" is emitted when it is all gone).
 */
class BunGuardianSocket extends EventListeners implements GuardianSocket {
  destroyed = false;
  writableLength = 0;
  #socket: BunSocket | undefined;
  #queue: Uint8Array[] = [];
  #ending = false;
  #closeTold = false;

  constructor() {
    super();
    // An error before the Guardian listens (it adds its own on attach) must not throw; "close" follows it.
    this.on("error", () => {});
  }

  open(socket: BunSocket): void {
    this.#socket = socket;
    if (this.destroyed) socket.terminate();
  }

  write(bytes: Uint8Array): boolean {
    if (this.destroyed || this.#ending) return false;
    this.#queue.push(bytes);
    this.writableLength += bytes.length;
    if (this.#queue.length === 1) this.flush();
    return this.#queue.length === 0;
  }

  /** Hands queued bytes to the kernel until it takes no more. */
  flush(): void {
    const socket = this.#socket;
    if (socket === undefined || this.destroyed) return;
    const hadQueue = this.#queue.length > 0;
    while (this.#queue.length > 0) {
      const head = this.#queue[0]!;
      const sent = Math.max(0, socket.write(head));
      this.writableLength -= sent;
      if (sent < head.length) {
        this.#queue[0] = head.subarray(sent);
        return;
      }
      this.#queue.shift();
    }
    if (this.#ending) socket.end();
    if (hadQueue) this.emit("drain");
  }

  pause(): void {
    this.#socket?.pause();
  }

  resume(): void {
    this.#socket?.resume();
  }

  end(): void {
    if (this.destroyed || this.#ending) return;
    this.#ending = true;
    if (this.#queue.length === 0) this.#socket?.end();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.#socket?.terminate();
    this.closed();
  }

  /** The connection is gone (either side, or an error): "close" once, as net.Socket says it. */
  closed(): void {
    if (this.#closeTold) return;
    this.#closeTold = true;
    this.destroyed = true;
    this.#queue = [];
    this.writableLength = 0;
    // Told a turn later, as net.Socket's "close" is: never from inside a caller's call.
    queueMicrotask(() => this.emit("close"));
  }
}
