// A served command line's stdin on one connection (the native client's
// input frames, tag 4). Pulled: each read asks the client for one frame, so
// the agent holds at most one piece of a `pty send --stdin`. Pushed, for a
// served `connect` (the request's `lines`): the first read asks (the
// go-ahead), then the client sends its stdin unasked as it comes, so a
// lockstep request costs the client one write and no wait for an ask; what
// came and was not read yet is queued here, and the connection stops
// reading its socket while that queue is large.
import type { ConnectionInput } from "./command-line-door.ts";

/** Pushed stdin not read yet before the connection stops reading (and reads on below the half). */
export const PUSHED_HIGH = 1024 * 1024;

/** What the stdin needs of its connection. */
export interface StdinLink {
  /** Sends the client an empty input frame: "send the next piece" (pushed: "start"). */
  ask(): void;
  /** Sends the client the input frame that says its stdin and stdout were taken. */
  adopted(): void;
  gone(): boolean;
  /** Stops reading the socket (a large queue). */
  hold(): void;
  /** Reads the socket again; `always`: even while replies back up (a pulled answer must come in). */
  readOn(always: boolean): void;
}

export class CommandStdin implements ConnectionInput {
  /** A read waits: the client's next input frame settles it. */
  #wanted: ((bytes: Uint8Array | null) => void) | null = null;
  #pushed: Uint8Array[] | null = null;
  #pushedBytes = 0;
  /** The go-ahead went out: from now on the client pushes. */
  #pushing = false;

  constructor(readonly link: StdinLink) {}

  /** The command line about to run is a served `connect`: its input frames may come before it reads. */
  expectPushed(): void {
    this.#pushed ??= [];
  }

  /** An input frame from the client; false when none was asked for or expected (a protocol error). */
  take(body: Uint8Array): boolean {
    if (this.#wanted !== null) {
      this.#settle(body.length === 0 ? null : body);
      return true;
    }
    if (this.#pushed === null) return false;
    this.#pushed.push(body);
    this.#pushedBytes += body.length;
    if (this.#pushedBytes >= PUSHED_HIGH) this.link.hold();
    return true;
  }

  /** A served `connect` whose stdin the agent took: nothing will be pushed, and nothing is asked for. */
  adopted(): void {
    this.#pushed = null;
    this.link.adopted();
  }

  /** The connection closed: a waiting read ends. */
  end(): void {
    this.#settle(null);
  }

  read(): Promise<Uint8Array | null> {
    if (this.#pushed !== null && this.#pushing) return this.#readPushed();
    if (this.link.gone() || this.#wanted !== null) return Promise.resolve(null);
    this.#pushing = this.#pushed !== null;
    if (this.#pushing && this.#pushed!.length > 0) return this.#readPushed();
    this.link.readOn(true);
    return new Promise((resolve) => {
      this.#wanted = resolve;
      this.link.ask();
    });
  }

  #readPushed(): Promise<Uint8Array | null> {
    const next = this.#pushed!.shift();
    if (next !== undefined) this.#pushedBytes -= next.length;
    if (this.#pushedBytes < PUSHED_HIGH / 2) this.link.readOn(false);
    if (next !== undefined) return Promise.resolve(next.length === 0 ? null : next);
    if (this.link.gone() || this.#wanted !== null) return Promise.resolve(null);
    return new Promise((resolve) => (this.#wanted = resolve));
  }

  #settle(bytes: Uint8Array | null): void {
    const wanted = this.#wanted;
    this.#wanted = null;
    wanted?.(bytes);
  }
}
