// The agent link over Bun's own sockets (`Bun.connect`): agent-link.ts says
// why. Bun's write() takes what the kernel takes now and returns the count;
// the rest waits here, in order, for the socket's drain.
import type { UnixLink as AgentLink, UnixLinkEvents as AgentLinkEvents } from "../platform.ts";

/** The part of Bun's socket API used here (no Bun types in this project). */
interface BunSocket {
  write(data: Uint8Array): number;
  pause(): void;
  resume(): void;
  end(): void;
  terminate(): void;
}

interface BunSocketHandler {
  open?(socket: BunSocket): void;
  data?(socket: BunSocket, data: Uint8Array): void;
  drain?(socket: BunSocket): void;
  end?(socket: BunSocket): void;
  close?(socket: BunSocket, error?: Error): void;
  error?(socket: BunSocket, error: Error): void;
}

interface BunConnect {
  connect(options: { unix: string; socket: BunSocketHandler }): Promise<BunSocket>;
}

export async function openBunLink(socketPath: string, events: AgentLinkEvents): Promise<AgentLink> {
  const bun = (globalThis as unknown as { readonly Bun: BunConnect }).Bun;
  let open = false;
  let closed = false;
  /** Bytes not yet taken by the kernel, oldest first. */
  const queue: Uint8Array[] = [];
  const finish = () => {
    if (closed) return;
    closed = true;
    queue.length = 0;
    // Told a turn later, as net.Socket's 'close' is: never from inside a call of the client's.
    if (open) queueMicrotask(() => events.close());
  };
  const flush = (socket: BunSocket) => {
    while (queue.length > 0 && !closed) {
      const head = queue[0]!;
      const sent = Math.max(0, socket.write(head));
      if (sent < head.length) {
        queue[0] = head.subarray(sent);
        return;
      }
      queue.shift();
    }
  };
  const socket = await bun.connect({
    unix: socketPath,
    socket: {
      // A copy (Buffer's slice() would be a view): the client keeps partial frames and hands bytes on to streams.
      data: (_socket, data) => {
        if (!closed) events.data(new Uint8Array(data));
      },
      drain: (s) => flush(s),
      // The agent ended its side: so do we, as net.Socket does (allowHalfOpen false).
      end: (s) => s.end(),
      error: (_socket, error) => {
        if (open && !closed) events.error(error);
      },
      close: () => finish(),
    },
  });
  open = true;
  // Closed between the connect and now: the client must still hear it, or a request would wait forever.
  if (closed) queueMicrotask(() => events.close());
  return {
    write: (bytes) => {
      if (closed) return;
      queue.push(bytes);
      if (queue.length === 1) flush(socket);
    },
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => {
      if (closed) return;
      socket.terminate();
      finish();
    },
    get closed() {
      return closed;
    },
  };
}
