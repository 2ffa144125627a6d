// Input for a node-pty terminal, written at the program's pace. node-pty
// hands input to a libuv stream on the PTY master, and once the program stops
// reading and the terminal's input queue is full, that write spins inside the
// event loop: the whole agent froze, every session with it, `pty close` and
// `agent stop` too. Here input waits in a queue and goes out with fs.write on
// the master (a threadpool call, never a spin of the loop); when the terminal
// takes nothing (EAGAIN) the pump looks again after a short pause. Senders
// wait on drained(), so a large send is paced by the program, not buffered.
import { write } from "node:fs";
import { Buffer } from "node:buffer";
import { BacklogWaiters } from "../../core/backlog-waiters.ts";

/** How long to wait before offering input again to a terminal that took none: from 1 ms, doubling to 16 ms while it takes nothing. */
const FIRST_RETRY_MS = 1;
const LAST_RETRY_MS = 16;

export class PtyInputPump {
  readonly #fd: number;
  readonly #queue: Buffer[] = [];
  #queued = 0;
  #writing = false;
  #closed = false;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #retryMs = FIRST_RETRY_MS;
  readonly #waiters = new BacklogWaiters();

  constructor(fd: number) {
    this.#fd = fd;
  }

  /** Bytes not yet taken by the terminal. */
  get queued(): number {
    return this.#queued;
  }

  push(bytes: Buffer): void {
    if (this.#closed || bytes.length === 0) return;
    this.#queue.push(bytes);
    this.#queued += bytes.length;
    this.#pump();
  }

  /** Resolves once at most `limit` bytes wait (at once after close()). */
  drained(limit: number): Promise<void> {
    return this.#waiters.wait(this.#closed ? 0 : this.#queued, limit);
  }

  /** The program is gone: what it never took is dropped, and every sender is released. */
  close(): void {
    this.#closed = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#queue.length = 0;
    this.#queued = 0;
    this.#release();
  }

  #pump(): void {
    if (this.#writing || this.#closed || this.#retry !== undefined) return;
    const next = this.#queue[0];
    if (next === undefined) return;
    this.#writing = true;
    write(this.#fd, next, 0, next.length, null, (error, written) => {
      this.#writing = false;
      if (this.#closed) return;
      if (error !== null) {
        if (error.code === "EAGAIN" || error.code === "EINTR") {
          this.#retry = setTimeout(() => {
            this.#retry = undefined;
            this.#pump();
          }, this.#retryMs);
          this.#retryMs = Math.min(LAST_RETRY_MS, this.#retryMs * 2);
          return;
        }
        // EIO and the like: the terminal is going away; its exit will follow.
        this.close();
        return;
      }
      this.#retryMs = FIRST_RETRY_MS;
      this.#queued -= written;
      if (written >= next.length) this.#queue.shift();
      else this.#queue[0] = next.subarray(written);
      this.#release();
      this.#pump();
    });
  }

  #release(): void {
    this.#waiters.release(this.#queued, this.#closed);
  }
}
