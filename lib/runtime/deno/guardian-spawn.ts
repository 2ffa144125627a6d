// Starting a guardian for run and collect (no reconnect, no token) with
// Deno's own API. Under Deno, node:child_process and node:net cost about
// 20 ms of a start before they do anything (they bring Deno's Node
// streams), a third of what `corral run` cost Deno over its bare start. But
// Deno.Command passes no descriptor past 2, so the guardian cannot inherit
// its owner's connection as fd 3 (`--owner-fd`, lib/runtime/bun/guardian-spawn.ts):
// instead we listen on a socket in a fresh 0700 directory (only we can reach
// it, so no token), the guardian connects to it (`--owner-connect`,
// native/owner.c), and after exactly one connection the listener, the
// socket and the directory go. The guardian is otherwise the same program
// with the same arguments; the two objects a Guardian holds
// (guardian-client.ts: GuardianProcess, GuardianSocket) are made here and
// in lib/runtime/deno/guardian-conn.ts.
import { EventListeners } from "../event-listeners.ts";
import path from "node:path";
import type { PlatformProcess as GuardianProcess, PlatformSocket as GuardianSocket } from "../platform.ts";
import { type DenoConn, DenoGuardianSocket } from "./guardian-conn.ts";
import { socketBaseDir } from "../socket-base-dir.ts";
import { signalName } from "../signals.ts";

/** What this file uses of Deno's API (no Deno types in this project). */
interface DenoChild {
  readonly pid: number;
  readonly status: Promise<{ readonly code: number; readonly signal: string | null }>;
  readonly stderr: ReadableStream<Uint8Array>;
  kill(signal?: string): void;
}

type DenoStdio = "inherit" | "null" | "piped";

interface DenoApi {
  Command: new (
    file: string,
    options: { args: string[]; env: Record<string, string>; clearEnv: true; stdin: DenoStdio; stdout: DenoStdio; stderr: DenoStdio },
  ) => { spawn(): DenoChild };
  listen(options: { transport: "unix"; path: string }): { accept(): Promise<DenoConn>; close(): void };
  makeTempDirSync(options: { dir: string; prefix: string }): string;
  removeSync(path: string, options: { recursive: true }): void;
}

/** A guardian started under Deno: its process, and its connection once the guardian made it. */
export interface DenoGuardianStart {
  readonly process: GuardianProcess;
  /** Resolves with the open connection; rejects when the guardian could not be started or exited before it connected. */
  readonly connection: Promise<GuardianSocket>;
}

/** The stdio of fds 0-2 as Deno.Command takes it; null when `stdio` asks for more (a descriptor Deno cannot pass). */
export function denoStdio(stdio: readonly ("inherit" | "ignore" | "pipe" | number)[]): DenoStdio[] | null {
  if (stdio.length > 4 || (stdio.length === 4 && stdio[3] !== "pipe")) return null;
  const io: DenoStdio[] = [];
  for (const s of stdio.slice(0, 3)) {
    if (typeof s === "number") return null;
    io.push(s === "ignore" ? "null" : s === "pipe" ? "piped" : "inherit");
  }
  return io;
}

/**
 * Starts `binary` with `argvFor(socket)` (the guardian's argv, with
 * `--owner-connect socket`), its fds 0-2 as `io` says (denoStdio);
 * `diagnostics` hears the guardian's stderr when that is "piped".
 */
export function spawnGuardianUnderDeno(
  binary: string,
  argvFor: (socketPath: string) => string[],
  env: Record<string, string | undefined>,
  io: readonly DenoStdio[],
  diagnostics: (text: string) => void,
): DenoGuardianStart {
  const deno = (globalThis as unknown as { readonly Deno: DenoApi }).Deno;
  const process = new DenoGuardianProcess();
  let dir: string | undefined;
  let listener: { accept(): Promise<DenoConn>; close(): void } | undefined;
  // Everything but the connection goes: the listener, its socket and the directory (once).
  const tidy = () => {
    try {
      listener?.close();
    } catch {
      // closed already
    }
    listener = undefined;
    if (dir !== undefined) {
      try {
        deno.removeSync(dir, { recursive: true });
      } catch {
        // removed already
      }
      dir = undefined;
    }
  };
  let child: DenoChild;
  try {
    dir = deno.makeTempDirSync({ dir: socketBaseDir(), prefix: "corral-guardian-" });
    const socketPath = path.join(dir, "owner.sock");
    listener = deno.listen({ transport: "unix", path: socketPath });
    const own: Record<string, string> = {};
    for (const [key, value] of Object.entries(env)) if (value !== undefined) own[key] = value;
    child = new deno.Command(binary, { args: argvFor(socketPath), env: own, clearEnv: true, stdin: io[0]!, stdout: io[1]!, stderr: io[2]! }).spawn();
  } catch (error) {
    tidy();
    // As node:child_process reports it: an "error" event, a turn later; the
    // caller names the binary, so Deno's "Failed to spawn '<binary>': " goes.
    const failure = error instanceof Error ? error : new Error(String(error));
    const named = `Failed to spawn '${binary}': `;
    if (failure.message.startsWith(named)) failure.message = failure.message.slice(named.length);
    queueMicrotask(() => process.emit("error", failure));
    return { process, connection: Promise.reject(failure) };
  }
  process.started(child);
  if (io[2] === "piped") void readText(child.stderr, diagnostics);
  const accepting = listener.accept();
  const connection = Promise.race([
    accepting.then((conn) => ({ conn })),
    child.status.then(() => ({ conn: null })),
  ]).then(({ conn }) => {
    tidy();
    if (conn === null) throw new Error("the guardian exited before it connected");
    return new DenoGuardianSocket(conn) as GuardianSocket;
  }, (error: unknown) => {
    // The listener failed while the guardian lives: nothing may be left, so it goes too.
    tidy();
    process.kill("SIGKILL");
    throw error;
  });
  // The accept a closed listener leaves pending rejects: not an unhandled rejection.
  accepting.catch(() => {});
  return { process, connection };
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
class DenoGuardianProcess extends EventListeners implements GuardianProcess {
  pid: number | undefined;
  #child: DenoChild | undefined;
  #exited = false;

  started(child: DenoChild): void {
    this.#child = child;
    this.pid = child.pid;
    void child.status.then((status) => {
      this.#exited = true;
      // Deno says 128+N with the signal's name; a ChildProcess says null and the name.
      this.emit("exit", status.signal === null ? status.code : null, status.signal);
    });
  }

  kill(signal: NodeJS.Signals | number = "SIGTERM"): boolean {
    if (this.#child === undefined || this.#exited) return false;
    try {
      this.#child.kill(typeof signal === "number" ? signalName(signal) : signal);
      return true;
    } catch {
      return false;
    }
  }
}
