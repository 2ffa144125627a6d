// Input to a guardian under credit (protocol v4, EV_INPUT_TAKEN). Input and
// control frames share one connection; once a program stops reading its
// input, a guardian that had stopped reading its connection would leave a
// SIGHUP or a terminate queued behind megabytes of input, and `pty close`
// hung. So at most WINDOW bytes of input are ever in flight to the guardian
// (it always has room for them and keeps reading); the rest waits here, and
// goes out as the guardian reports what the program took. Senders wait on
// drained(), which is the backpressure a large `pty send` feels.
import { BacklogWaiters } from "../../core/backlog-waiters.ts";

/** Input in flight to the guardian at most: well under its own input bound (OUT_LIMIT, 4 MiB). */
const WINDOW = 1024 * 1024;
/** The size of one input frame. */
const CHUNK = 64 * 1024;

export class GuardianInput {
  readonly #send: (bytes: Uint8Array) => void;
  readonly #queue: Uint8Array[] = [];
  #queued = 0;
  #inFlight = 0;
  /** Credit is used once the guardian said it reports what it takes (welcome version >= 4). */
  #credit: boolean | undefined;
  #closed = false;
  readonly #waiters = new BacklogWaiters();

  constructor(send: (bytes: Uint8Array) => void) {
    this.#send = send;
  }

  /** Bytes held here, not yet sent to the guardian. */
  get queued(): number {
    return this.#queued;
  }

  /** The guardian's protocol version, from its welcome: below 4 it reports nothing, so input goes straight out. */
  welcome(version: number): void {
    this.#credit = version >= 4;
    this.#pump();
  }

  push(data: Uint8Array): void {
    if (this.#closed || data.length === 0) return;
    this.#queue.push(data);
    this.#queued += data.length;
    this.#pump();
  }

  /** EV_INPUT_TAKEN: the program took (or the guardian dropped) `n` bytes. */
  taken(n: number): void {
    // A re-adopted guardian may report input a previous owner sent.
    this.#inFlight = Math.max(0, this.#inFlight - n);
    this.#pump();
  }

  /** Resolves once at most `limit` bytes wait here (at once when closed). */
  drained(limit: number): Promise<void> {
    return this.#waiters.wait(this.#closed ? 0 : this.#queued, limit);
  }

  /** The connection is gone: what waits here can never be delivered. */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    this.#queued = 0;
    this.#release();
  }

  #pump(): void {
    if (this.#credit === undefined || this.#closed) return;
    while (this.#queue.length > 0) {
      const room = this.#credit ? WINDOW - this.#inFlight : Number.MAX_SAFE_INTEGER;
      if (room <= 0) break;
      const head = this.#queue[0]!;
      const n = Math.min(head.length, CHUNK, room);
      this.#send(head.subarray(0, n));
      if (this.#credit) this.#inFlight += n;
      this.#queued -= n;
      if (n === head.length) this.#queue.shift();
      else this.#queue[0] = head.subarray(n);
    }
    this.#release();
  }

  #release(): void {
    this.#waiters.release(this.#queued, this.#closed);
  }
}
