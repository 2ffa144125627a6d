// A Deno.Conn as the GuardianSocket a Guardian speaks over (guardian-client.ts):
// the events and methods of net.Socket it uses, as lib/runtime/bun/guardian-spawn.ts gives
// them for Bun. One read loop that waits while paused (the guardian then waits
// on a full socket and stops reading its child); writes go out one after
// another, in order, each whole.
import { EventListeners } from "../event-listeners.ts";
import type { PlatformSocket as GuardianSocket } from "../platform.ts";

/** The part of Deno's connection API used here (no Deno types in this project). */
export interface DenoConn {
  read(into: Uint8Array): Promise<number | null>;
  write(data: Uint8Array): Promise<number>;
  closeWrite(): Promise<void>;
  close(): void;
}

/** Bytes asked for per read. */
const READ_BYTES = 64 * 1024;

/** Deno's connection as net.Socket's events show it ("data", "drain", "error", "close"). */
export class DenoGuardianSocket extends EventListeners implements GuardianSocket {
  destroyed = false;
  writableLength = 0;
  readonly #conn: DenoConn;
  #queue: Uint8Array[] = [];
  #writing = false;
  #ending = false;
  /** The guardian ended its side (EOF read). */
  #peerEnded = false;
  #paused: { promise: Promise<void>; resume: () => void } | null = null;

  constructor(conn: DenoConn) {
    super();
    this.#conn = conn;
    // An error before the Guardian listens (it adds its own on attach) must not throw; "close" follows it.
    this.on("error", () => {});
    // Started now: a read waits for I/O, so nothing is emitted before the caller adds its listeners.
    void this.#readLoop();
  }

  async #readLoop(): Promise<void> {
    const buffer = new Uint8Array(READ_BYTES);
    try {
      while (!this.destroyed) {
        if (this.#paused !== null) await this.#paused.promise;
        if (this.destroyed) return;
        const n = await this.#conn.read(buffer);
        if (n === null) break;
        // A copy: the buffer is read into again, and the decoder keeps partial frames.
        if (!this.destroyed) this.emit("data", buffer.slice(0, n));
      }
      // The guardian ended its side: so do we, after what is queued, as net.Socket does (allowHalfOpen false).
      this.#peerEnded = true;
      if (this.#queue.length === 0) this.destroy();
      else this.end();
    } catch (error) {
      this.#fail(error);
    }
  }

  write(bytes: Uint8Array): boolean {
    if (this.destroyed || this.#ending) return false;
    this.#queue.push(bytes);
    this.writableLength += bytes.length;
    if (!this.#writing) void this.#flush();
    return this.writableLength === 0;
  }

  /** Hands queued bytes to the connection, in order, until none are left. */
  async #flush(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length > 0 && !this.destroyed) {
        const head = this.#queue[0]!;
        const sent = await this.#conn.write(head);
        if (this.destroyed) return;
        this.writableLength -= sent;
        if (sent < head.length) this.#queue[0] = head.subarray(sent);
        else this.#queue.shift();
      }
    } catch (error) {
      this.#fail(error);
      return;
    } finally {
      this.#writing = false;
    }
    if (this.destroyed) return;
    this.emit("drain");
    if (this.#ending) await this.#closeWrite();
  }

  async #closeWrite(): Promise<void> {
    if (this.#peerEnded) {
      this.destroy();
      return;
    }
    try {
      await this.#conn.closeWrite();
    } catch (error) {
      this.#fail(error);
    }
  }

  pause(): void {
    if (this.#paused !== null || this.destroyed) return;
    let resume!: () => void;
    const promise = new Promise<void>((resolve) => (resume = resolve));
    this.#paused = { promise, resume };
  }

  resume(): void {
    const was = this.#paused;
    this.#paused = null;
    was?.resume();
  }

  /** Our side ends after what is queued; the connection closes when the guardian's side has too. */
  end(): void {
    if (this.destroyed || this.#ending) return;
    this.#ending = true;
    if (!this.#writing) void this.#closeWrite();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.#queue = [];
    this.writableLength = 0;
    try {
      this.#conn.close();
    } catch {
      // closed already
    }
    this.#paused?.resume();
    // Told a turn later, as net.Socket's "close" is: never from inside a caller's call.
    queueMicrotask(() => this.emit("close"));
  }

  #fail(error: unknown): void {
    if (this.destroyed) return;
    this.emit("error", error instanceof Error ? error : new Error(String(error)));
    this.destroy();
  }
}
