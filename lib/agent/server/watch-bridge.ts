// The watch mode of a connection (`pty view`): a read-only copy of the
// session's terminal. The screen as it is goes first, then the raw output as
// byte frames, size changes and the exit as JSON events. Nothing the client
// sends reaches the session. A watcher that cannot keep up is cut off rather
// than buffered without bound, and never slows the session.
import type { Socket } from "node:net";
import { Buffer } from "node:buffer";
import { bytesFrame, eventFrame, type Frame } from "../protocol/frames.ts";
import { AgentError, type AttachExitEvent, type WatchResizeEvent } from "../protocol/messages.ts";
import type { SessionEntry } from "./session-registry.ts";
import type { AttachMode } from "./job-terminal.ts";

/** Unsent bytes above which the watcher is disconnected. */
const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

/** Wires one watching connection to one session. */
export class WatchBridge implements AttachMode {
  #held: Buffer[] | null = [];
  #stop: Array<() => void> = [];

  private constructor(readonly socket: Socket) {}

  /**
   * Starts following; frames are held until `release` (after the reply is
   * written), so the reply always comes first.
   */
  static async start(entry: SessionEntry, socket: Socket): Promise<{ bridge: WatchBridge; cols: number; rows: number }> {
    const { session } = entry;
    if (session.follow === undefined) throw new AgentError("bad_request", `session ${entry.id} cannot be watched`);
    if (!session.alive()) throw new AgentError("session_exited", `session ${entry.id} has exited; pty screen --svg draws its last screen`);
    const bridge = new WatchBridge(socket);
    const follower = await session.follow(
      (bytes) => bridge.#push(bytesFrame(bytes)),
      (cols, rows) => bridge.#event({ event: "resize", cols, rows }),
    );
    bridge.#stop.push(follower.stop);
    bridge.#push(bytesFrame(Buffer.from(follower.redraw, "utf8")), true);
    bridge.#stop.push(session.onExit((exit) => {
      bridge.#event({ event: "exit", exit });
      bridge.detach();
      bridge.#whenReleased(() => socket.end());
    }));
    // The reply is written in the same turn as the handler returns; the held frames follow it.
    setImmediate(() => bridge.#release());
    return { bridge, cols: follower.cols, rows: follower.rows };
  }

  /** Frames from a watcher are ignored: the view is read-only. */
  onFrame(_frame: Frame): void {}

  detach(): void {
    for (const stop of this.#stop.splice(0)) stop();
  }

  #event(event: WatchResizeEvent | AttachExitEvent): void {
    this.#push(eventFrame(event));
  }

  #push(frame: Uint8Array, first = false): void {
    if (this.#held !== null) {
      if (first) this.#held.unshift(Buffer.from(frame));
      else this.#held.push(Buffer.from(frame));
      return;
    }
    this.#write(frame);
  }

  #write(frame: Uint8Array): void {
    if (this.socket.destroyed) return;
    if (this.socket.writableLength > MAX_UNSENT_BYTES) {
      this.detach();
      this.socket.destroy();
      return;
    }
    this.socket.write(frame);
  }

  #afterRelease: Array<() => void> = [];

  #whenReleased(action: () => void): void {
    if (this.#held === null) action();
    else this.#afterRelease.push(action);
  }

  #release(): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const frame of held) this.#write(frame);
    for (const action of this.#afterRelease.splice(0)) action();
  }
}
