// The byte stream under an agent client (client.ts): a connection to the
// agent's Unix socket, opened through the runtime's cheapest way. Under Bun,
// node:net's first use costs about 20 ms (its net.Socket pulls in Bun's
// Node stream classes) where Bun's own sockets cost about 2 ms (`bun -e` of
// one connect, interleaved, N=30: 36 vs 16 ms wall, bare 14): a third of a
// `corral jobs`. Under Deno, `Deno.connect` spares node:net (and the
// net.Socket, node:dns, streams it brings) over the node:fs the client needs
// anyway: `jobs` 67 -> 60 ms of CPU with the step after it, N=30, bare 26.
// Node keeps node:net. The runtime is decided at the seam
// (lib/runtime/runtime-name.ts); each way is a file of its own, loaded only
// when chosen.
import { currentRuntime } from "../../runtime/runtime-name.ts";

/** What the client hears from its connection; none is called before openAgentLink resolves. */
export interface AgentLinkEvents {
  /** Bytes from the agent; the array is the client's to keep. */
  data(bytes: Uint8Array): void;
  /** The connection failed after it was open; close follows. */
  error(error: Error): void;
  /** The connection is closed, by either side or by an error. Called once. */
  close(): void;
}

/** An open connection to the agent. */
export interface AgentLink {
  /** Queues `bytes` in order; nothing is sent once closed. */
  write(bytes: Uint8Array): void;
  /** Stops reading (the agent then waits on a full socket): backpressure for a slow consumer. */
  pause(): void;
  resume(): void;
  /** Closes now; what is still queued is dropped, as net.Socket's destroy() drops it. */
  close(): void;
  readonly closed: boolean;
}

/**
 * Connects to the agent socket at `socketPath`. Rejects with the connect
 * error, its `code` (ENOENT, ECONNREFUSED, EACCES, ...) as node:net gives it.
 */
export async function openAgentLink(socketPath: string, events: AgentLinkEvents): Promise<AgentLink> {
  switch (currentRuntime()) {
    case "bun":
      return (await import("./agent-link-bun.ts")).openBunLink(socketPath, events);
    case "deno":
      return (await import("./agent-link-deno.ts")).openDenoLink(socketPath, events);
    case "node":
      return (await import("./agent-link-net.ts")).openNetLink(socketPath, events);
  }
}
