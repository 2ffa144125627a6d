// The fast way for a child's output to reach a store on Node: a Unix stream
// socket (what libuv's stdio 'pipe' is anyway) whose read end uses Node's
// `onread` with one reused 256 KiB buffer (a Unix socket rarely holds more).
// Compared with the child's stdout stream, Node reads several times fewer,
// allocates nothing per read, and the process's RSS stays near Node's
// baseline (see README "Benchmarks"). collect's JavaScript path reads every
// stream this way (lib/supervise/process-group/tree.ts).
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BoundedStore } from "./bounded-store.ts";

const READ_BYTES = 256 * 1024;

/** Where the channel delivers: a BoundedStore, or anything with its copying write. */
export type TransientSink = Pick<BoundedStore, "writeTransient" | "onDrain">;

/** One stream of a child's output: give `childEnd` to spawn's stdio, then call released(). */
export class OutputChannel {
  /** The socket the child writes to; pass it in spawn's `stdio` (for fd 1, or fd 1 and 2 to merge). */
  readonly childEnd: net.Socket;
  /** Resolves when every holder of the child end has closed it (EOF), or on destroy(). */
  readonly ended: Promise<void>;
  readonly #reader: net.Socket;
  #atEof = false;
  readonly #flow: { readonly waitingOnSink: boolean };

  private constructor(childEnd: net.Socket, reader: net.Socket, flow: { readonly waitingOnSink: boolean }) {
    this.childEnd = childEnd;
    this.#reader = reader;
    this.#flow = flow;
    this.ended = new Promise<void>((resolve) => {
      reader.once("end", resolve);
      reader.once("close", resolve);
      reader.once("error", resolve);
    }).then(() => {
      this.#atEof = true;
    });
  }

  /** True once `ended` has resolved (the shape of lib/supervise's OutputPump). */
  get atEof(): boolean {
    return this.#atEof;
  }

  /** Paused because the sink is full (the pump shape): corral, not the writer, is the bottleneck. */
  get waitingOnSink(): boolean {
    return this.#flow.waitingOnSink;
  }

  /** Connects a socket pair whose read end feeds `store` (with its backpressure). */
  static async open(store: TransientSink): Promise<OutputChannel> {
    // A private directory: nobody else can connect before we do.
    const dir = mkdtempSync(path.join(tmpdir(), "corral-out-"));
    const address = path.join(dir, "s");
    // pauseOnConnect: this process never reads the child's end.
    const server = net.createServer({ pauseOnConnect: true });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(address, resolve);
      });
      const accepted = new Promise<net.Socket>((resolve) => server.once("connection", resolve));
      let reader: net.Socket | undefined;
      // Shared with the channel made below: the read callback runs before it exists.
      const flow = { waitingOnSink: false };
      const connected = new Promise<void>((resolve, reject) => {
        reader = net.connect({
          path: address,
          onread: {
            buffer: Buffer.allocUnsafe(READ_BYTES),
            callback: (n: number, buf: Uint8Array): boolean => {
              if (store.writeTransient(buf.subarray(0, n))) return true;
              flow.waitingOnSink = true;
              store.onDrain(() => {
                flow.waitingOnSink = false;
                reader?.resume();
              });
              return false; // pauses the socket until the sink catches up
            },
          },
        });
        reader.once("connect", resolve);
        reader.once("error", reject);
      });
      const [childEnd] = await Promise.all([accepted, connected]);
      return new OutputChannel(childEnd, reader as net.Socket, flow);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Closes this process's copy of the child end (after spawn), so EOF can come. */
  released(): void {
    this.childEnd.destroy();
  }

  /** destroy() unless EOF came already (the pump shape). */
  abandon(): void {
    if (!this.#atEof) this.destroy();
  }

  /** Stops reading: a descendant that keeps the child end open must not hold corral. */
  destroy(): void {
    this.childEnd.destroy();
    this.#reader.destroy();
  }
}
