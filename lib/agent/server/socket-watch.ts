// An agent nobody can reach must not hold its sessions for ever. When its
// socket disappears (a harness's cleanup removed the state dir, `rm -rf
// $XDG_RUNTIME_DIR` at logout), the agent recreates the state dir and the
// socket where it can, so every command finds it again; where it cannot, it
// ends what it holds once LOST_BOUND_MS have passed without a socket, saying
// so in its log, rather than keep programs running that no command can see.
import { lstatSync } from "node:fs";

/** How often the socket path is looked at. */
export const SOCKET_CHECK_MS = 1000;
/** How long an agent without a socket it can recreate keeps what it holds. */
export const LOST_BOUND_MS = 10_000;

/** What the watch needs from the agent. */
export interface SocketWatchPort {
  readonly socket: string;
  /** Recreates the state dir and listens on the socket path again; throws why it cannot. */
  relisten(): Promise<void>;
  /** Ends everything held (the bound passed); `why` goes to the log. */
  giveUp(why: string): void;
  log(line: string): void;
}

/** Watches one agent's socket path; check() is called on a timer. */
export class SocketWatch {
  #inode: number | null;
  #lostSince = 0;
  #lastError = "";
  #busy = false;

  constructor(private readonly port: SocketWatchPort) {
    this.#inode = inodeOf(port.socket);
  }

  async check(now = Date.now()): Promise<void> {
    if (this.#busy) return;
    const inode = inodeOf(this.port.socket);
    if (inode !== null && inode === this.#inode) {
      this.#lostSince = 0;
      return;
    }
    // Another file at the path (a newer agent) is not ours to replace: only a missing path is recreated.
    if (inode !== null) return;
    this.#busy = true;
    try {
      await this.port.relisten();
      this.#inode = inodeOf(this.port.socket);
      this.port.log(`the socket ${this.port.socket} was removed; listening on it again`);
      this.#lostSince = 0;
      this.#lastError = "";
    } catch (error) {
      const message = (error as Error).message;
      if (this.#lostSince === 0) this.#lostSince = now;
      if (message !== this.#lastError) {
        this.port.log(`the socket ${this.port.socket} was removed and cannot be recreated (${message}); ending what this agent holds in ${LOST_BOUND_MS} ms unless it can`);
        this.#lastError = message;
      }
      if (now - this.#lostSince >= LOST_BOUND_MS) {
        this.port.giveUp(`its socket ${this.port.socket} is gone and could not be recreated for ${LOST_BOUND_MS} ms (${message}): no command can reach it`);
      }
    } finally {
      this.#busy = false;
    }
  }
}

function inodeOf(file: string): number | null {
  try {
    const stat = lstatSync(file);
    return stat.isSocket() ? stat.ino : null;
  } catch {
    return null;
  }
}
