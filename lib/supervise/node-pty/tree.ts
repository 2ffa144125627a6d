// node-pty's one adapter (adapter.ts), the fallback for terminal sessions:
// @lydell/node-pty (node-pty's code, prebuilt). Used where the guardian is
// not built. Its limits, documented in the README:
// output still buffered in the kernel when the program exits can be lost if
// the reader is paused for long (node-pty gives the master 200 ms after the
// exit before it closes it), stop/continue is not reported, and the tree is
// found by a /proc census rather than the guardian's subreaper.
import { closeSync, constants, openSync } from "node:fs";
import type { IPty } from "@lydell/node-pty";
import type { TreeAdapter } from "../adapter.ts";
import type { PtySpawnRequest, SignalTarget, SupervisedTree, SupervisedTreeEvents } from "../handle.ts";
import { SpawnError } from "../spawn-error.ts";
import { TreeEvents } from "../tree-events.ts";
import type { Receipt } from "../../core/receipt.ts";
import { signalName } from "../../runtime/signals.ts";
import { foregroundGroup, sessionMembers, terminateSession } from "./session-census.ts";
import { PtyInputPump } from "./input-pump.ts";
import { DEFAULT_GRACE_MS } from "../../core/defaults.ts";

/** Input the terminal has not taken yet beyond which a sender waits (as the guardian's backlog). */
const INPUT_BACKLOG_BYTES = 64 * 1024;

// Linux discards what is still queued on a PTY master once the last slave
// descriptor closes (reads get EIO), which loses the end of a program's
// output. Holding a slave descriptor of our own keeps the master readable
// until node-pty gives up on it after the exit (its 200 ms close timer).
function holdSlave(ptsPath: string | undefined): number | undefined {
  if (ptsPath === undefined) return undefined;
  try {
    return openSync(ptsPath, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
}

type NodePtyModule = typeof import("@lydell/node-pty");
let loaded: Promise<NodePtyModule> | undefined;

// Loaded on first use only: the native addon must never be touched by `run`/`collect`.
function loadNodePty(): Promise<NodePtyModule> {
  loaded ??= import("@lydell/node-pty").then((m) => {
    const mod = m as NodePtyModule & { default?: NodePtyModule };
    return typeof mod.spawn === "function" ? mod : (mod.default as NodePtyModule);
  });
  return loaded;
}

class NodePtyHandle implements SupervisedTree {
  readonly backend = "node-pty" as const;
  readonly pid: number;
  #paused = false;
  /** Output before anyone listens is kept rather than dropped. No stop/continue: node-pty does not report them. */
  readonly #events = new TreeEvents();
  /** Every pid a census has seen in this session (see terminateSession). */
  #known = new Set<number>();

  /** The terminal's device path (node-pty keeps it in a private field). */
  #ptsPath: string | undefined;
  /** Our own descriptor on the terminal, so the master never reads EIO while bytes remain. */
  #slave: number | undefined;
  /** Input at the program's pace (input-pump.ts); undefined when node-pty hides the master's fd. */
  readonly #input: PtyInputPump | undefined;

  constructor(private readonly pty: IPty) {
    this.pid = pty.pid;
    const pts = (pty as unknown as { _pty?: unknown })._pty;
    this.#ptsPath = typeof pts === "string" && pts.startsWith("/dev/") ? pts : undefined;
    this.#slave = holdSlave(this.#ptsPath);
    const master = (pty as unknown as { _fd?: unknown })._fd;
    this.#input = typeof master === "number" ? new PtyInputPump(master) : undefined;
    // With encoding null node-pty hands over Buffers, typed as string in its d.ts.
    pty.onData((chunk: string | Uint8Array) => {
      const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
      this.#events.output(bytes);
    });
    pty.onExit(({ exitCode, signal }) => {
      this.#input?.close();
      const sig = signal !== undefined && signal !== 0 ? signalName(signal) : null;
      // node-pty reports exit after the master reached EOF, unless it gave up
      // waiting (paused reader): then bytes may be missing.
      if (this.#slave !== undefined) {
        // Last look by terminal before letting it go: once the slave and the
        // master are closed the pts number is free for anyone's next PTY, so
        // later censuses find this session's programs through #known only.
        for (const pid of sessionMembers(this.pid, this.#ptsPath)) this.#known.add(pid);
        closeSync(this.#slave);
      }
      this.#slave = undefined;
      this.#events.exit({ code: sig === null ? exitCode : null, signal: sig, outputComplete: !this.#paused });
    });
  }

  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.#events.on(event, listener);
  }

  write(data: Uint8Array | string): void {
    if (this.#events.exited !== undefined) return;
    if (this.#input !== undefined) {
      this.#input.push(typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      return;
    }
    // node-pty's write is typed for strings but hands the value to a socket,
    // which takes bytes as they are (no UTF-8 round trip for raw input).
    this.pty.write(typeof data === "string" ? data : (Buffer.from(data.buffer, data.byteOffset, data.byteLength) as unknown as string));
  }

  inputDrained(): Promise<void> {
    return this.#input?.drained(INPUT_BACKLOG_BYTES) ?? Promise.resolve();
  }

  resize(cols: number, rows: number): void {
    if (this.#events.exited === undefined) this.pty.resize(cols, rows);
  }

  /** Silently nothing when the program is gone. */
  signal(signal: string, target: SignalTarget): Promise<void> {
    this.#signal(signal, target);
    return Promise.resolve();
  }

  #signal(signal: string, target: SignalTarget): void {
    if (this.#events.exited !== undefined) return;
    const pids = target === "tree" ? sessionMembers(this.pid, this.#heldTerminal()) : [];
    for (const pid of pids) this.#known.add(pid);
    const group = foregroundGroup(this.pid);
    try {
      if (target === "foreground" && group !== undefined) process.kill(-group, signal as NodeJS.Signals);
      else if (target === "foreground") process.kill(this.pid, signal as NodeJS.Signals);
    } catch {
      // gone already
    }
    for (const pid of pids) {
      try {
        process.kill(pid, signal as NodeJS.Signals);
      } catch {
        // gone already
      }
    }
  }

  terminate(graceMs = DEFAULT_GRACE_MS, firstSignal: NodeJS.Signals = "SIGTERM"): Promise<Receipt> {
    return terminateSession(this.pid, () => this.#heldTerminal(), graceMs, this.#known, firstSignal);
  }

  /** The terminal's path while we still hold it: only then is the number surely ours. */
  #heldTerminal(): string | undefined {
    return this.#slave !== undefined ? this.#ptsPath : undefined;
  }

  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    this.pty.pause();
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.pty.resume();
  }

  dispose(): void {
    this.#input?.close();
    try {
      (this.pty as unknown as { destroy?: () => void }).destroy?.();
    } catch {
      // already closed
    }
  }
}

/** node-pty as an adapter: terminal sessions only (no stop events, so no jobs). */
export const nodePtyTree: TreeAdapter = {
  name: "node-pty",
  async startSession(request: PtySpawnRequest): Promise<SupervisedTree> {
    let mod: NodePtyModule;
    try {
      mod = await loadNodePty();
    } catch (error) {
      throw new SpawnError("backend-unavailable", `node-pty could not be loaded (${(error as Error).message}); build the guardian`);
    }
    const [file, ...args] = request.argv;
    if (file === undefined) throw new SpawnError("not-found", "the command is empty; give a program name, e.g. -- bash");
    try {
      const pty = mod.spawn(file, args, {
        cols: request.cols,
        rows: request.rows,
        cwd: request.cwd,
        env: { ...request.env },
        name: request.env.TERM ?? "xterm-256color",
        encoding: null,
      });
      return new NodePtyHandle(pty);
    } catch (error) {
      throw new SpawnError("spawn-failed", `could not start ${file} on a PTY: ${(error as Error).message}`);
    }
  },
};
