// Where a native `connect` client leaves its stdin and stdout for the agent
// to take (as tmux's control client hands its own to the server): a
// datagram socket at the agent socket's path plus `.fds`, in the agent's
// private directory, bound and read by the addon native/build/corral-adopt.node
// (native/adopt/descriptor-drop.c says why an addon). The client drops its
// descriptors with a random token, then sends the request naming the token:
// the drop is read when that request comes, and what came for other tokens
// waits a little for its own request. A drop whose sender is gone, or that
// waited too long, is closed: nothing of a client is held past it (a pipe
// held here would keep its reader from ever seeing the end).
import { closeSync, lstatSync, unlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { runtimeTraits } from "../../runtime/traits.ts";
import { currentUid } from "../../runtime/user-id.ts";
import { isLive, readStat } from "../../proc/stat.ts";

/** What the addon offers (descriptor-drop.c). */
interface AdoptAddon {
  bind(path: string): number;
  receive(fd: number): { token: string; fds: number[]; pid: number; uid: number } | null;
  map(fd: number, length: number): ArrayBuffer;
}

/** A client's stdin, stdout and ledger, taken. */
export interface DroppedStdio {
  readonly stdin: number;
  readonly stdout: number;
  readonly ledger: number;
  /** The addon, to map the ledger with. */
  readonly map: (fd: number, length: number) => ArrayBuffer;
  /** Lets go of all three, untaken (a refused request). */
  close(): void;
}

/** How long a drop waits for its request: the client sends the request right after it. */
const WAIT_MS = 10_000;
/** How often the drop is read while nothing asks (a client killed between its drop and its request). */
const SWEEP_MS = 2_000;

interface Waiting {
  readonly fds: readonly number[];
  readonly pid: number;
  readonly at: number;
}

export class DescriptorDrop {
  readonly #waiting = new Map<string, Waiting>();
  readonly #sweep: ReturnType<typeof setInterval>;
  #closed = false;

  /** The path's inode when bound: removed at close only while it is still this one. */
  readonly inode: number;

  private constructor(
    readonly path: string,
    readonly fd: number,
    readonly addon: AdoptAddon,
  ) {
    this.inode = lstatSync(path).ino;
    this.#sweep = setInterval(() => this.#read(), SWEEP_MS);
    this.#sweep.unref?.();
  }

  /**
   * The drop beside `socket`, or why there is none (the client then relays):
   * a runtime whose sockets cannot take a descriptor, no addon built, a path
   * too long for a Unix socket.
   */
  static open(socket: string, packageRoot: string | null): DescriptorDrop | string {
    if (!runtimeTraits().socketsFromDescriptors) return `${runtimeTraits().name}'s sockets cannot take a client's descriptors`;
    if (packageRoot === null) return "no package root to find the addon in";
    const file = path.join(packageRoot, "native", "build", "corral-adopt.node");
    let addon: AdoptAddon;
    try {
      addon = createRequire(path.join(packageRoot, "package.json"))(file) as AdoptAddon;
    } catch (error) {
      return `the addon ${file} did not load (${(error as Error).message.split("\n")[0]})`;
    }
    const at = `${socket}.fds`;
    try {
      return new DescriptorDrop(at, addon.bind(at), addon);
    } catch (error) {
      return `cannot bind ${at}: ${(error as Error).message}`;
    }
  }

  /** The descriptors dropped with `token` by a process of this user; null when none came. */
  take(token: string): DroppedStdio | null {
    this.#read();
    const found = this.#waiting.get(token);
    if (found === undefined) return null;
    this.#waiting.delete(token);
    const [stdin, stdout, ledger, ...extra] = found.fds;
    closeAll(extra);
    if (stdin === undefined || stdout === undefined || ledger === undefined) {
      closeAll(found.fds.slice(0, 3));
      return null;
    }
    return { stdin, stdout, ledger, map: (fd, length) => this.addon.map(fd, length), close: () => closeAll([stdin, stdout, ledger]) };
  }

  /** Closes the drop and everything waiting in it; removes its path. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweep);
    this.#read();
    for (const waiting of this.#waiting.values()) closeAll(waiting.fds);
    this.#waiting.clear();
    closeAll([this.fd]);
    // Only our own: a later agent may have bound the path since.
    try {
      if (lstatSync(this.path).ino === this.inode) unlinkSync(this.path);
    } catch {
      // gone already
    }
  }

  /** Takes in what waits at the drop, and lets go of drops nobody came for. */
  #read(): void {
    if (this.#closed && this.#waiting.size === 0) return;
    const now = Date.now();
    for (;;) {
      let next: ReturnType<AdoptAddon["receive"]>;
      try {
        next = this.addon.receive(this.fd);
      } catch {
        break;
      }
      if (next === null) break;
      // Only this user's processes reach the private directory; the kernel's word is checked all the same.
      if (next.uid !== currentUid() || this.#waiting.has(next.token)) {
        closeAll(next.fds);
        continue;
      }
      this.#waiting.set(next.token, { fds: next.fds, pid: next.pid, at: now });
    }
    for (const [token, waiting] of this.#waiting) {
      if (now - waiting.at < WAIT_MS && alive(waiting.pid)) continue;
      this.#waiting.delete(token);
      closeAll(waiting.fds);
    }
  }
}

function closeAll(fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}

/** Present and not a zombie: a client killed between its drop and its request is not waited for. */
function alive(pid: number): boolean {
  return isLive(readStat(pid));
}
