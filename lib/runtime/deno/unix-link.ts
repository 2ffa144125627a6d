// The agent link over Deno's own sockets (`Deno.connect`): agent-link.ts
// says why. One read loop that waits while paused (the agent then waits on
// a full socket); writes go one after another, in order.

/** The part of Deno's connection API used here (no Deno types in this project). */
interface DenoConn {
  read(into: Uint8Array): Promise<number | null>;
  write(data: Uint8Array): Promise<number>;
  close(): void;
}

interface DenoConnect {
  connect(options: { transport: "unix"; path: string }): Promise<DenoConn>;
}

import type { UnixLink as AgentLink, UnixLinkEvents as AgentLinkEvents } from "../platform.ts";

/** Bytes asked for per read. */
const READ_BYTES = 64 * 1024;

export async function openDenoLink(socketPath: string, events: AgentLinkEvents): Promise<AgentLink> {
  const deno = (globalThis as unknown as { readonly Deno: DenoConnect }).Deno;
  const conn = await deno.connect({ transport: "unix", path: socketPath });
  let closed = false;
  // Typed by assertion: the read loop below is an immediately run closure, and TypeScript would keep the initial null there.
  let paused = null as { promise: Promise<void>; resume: () => void } | null;
  let writing: Promise<void> = Promise.resolve();
  const finish = () => {
    if (closed) return;
    closed = true;
    try {
      conn.close();
    } catch {
      // closed already
    }
    paused?.resume();
    // Told a turn later, as net.Socket's 'close' is: never from inside a call of the client's.
    queueMicrotask(() => events.close());
  };
  const fail = (error: unknown) => {
    if (closed) return;
    events.error(error instanceof Error ? error : new Error(String(error)));
    finish();
  };
  // Started now: a read waits for I/O, so nothing arrives before the client holds this link.
  void (async () => {
    const buffer = new Uint8Array(READ_BYTES);
    try {
      while (!closed) {
        if (paused !== null) await paused.promise;
        if (closed) break;
        const n = await conn.read(buffer);
        if (n === null) break;
        if (!closed) events.data(buffer.slice(0, n));
      }
      finish();
    } catch (error) {
      fail(error);
    }
  })();
  return {
    write: (bytes) => {
      if (closed) return;
      writing = writing.then(async () => {
        for (let done = 0; done < bytes.length && !closed; ) done += await conn.write(bytes.subarray(done));
      }).catch(fail);
    },
    pause: () => {
      if (paused !== null || closed) return;
      let resume!: () => void;
      const promise = new Promise<void>((resolve) => (resume = resolve));
      paused = { promise, resume };
    },
    resume: () => {
      const was = paused;
      paused = null;
      was?.resume();
    },
    close: () => finish(),
    get closed() {
      return closed;
    },
  };
}
