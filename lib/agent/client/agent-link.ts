// The byte stream under an agent client (client.ts): a connection to the
// agent's Unix socket, opened through the runtime's cheapest way. Under Bun,
// node:net's first use costs about 20 ms (its net.Socket pulls in Bun's
// Node stream classes) where Bun's own sockets cost about 2 ms (`bun -e` of
// one connect, interleaved, N=30: 36 vs 16 ms wall, bare 14): a third of a
// `corral jobs`. Under Deno, `Deno.connect` spares node:net (and the
// net.Socket, node:dns, streams it brings) over the node:fs the client needs
// anyway: `jobs` 67 -> 60 ms of CPU with the step after it, N=30, bare 26.
// Node keeps node:net. The runtime is decided at the seam
// (lib/runtime/unix-link.ts); each way is a file of its own there, loaded
// only when chosen.
import { openUnixLink } from "../../runtime/unix-link.ts";

/** What the client hears from its connection, and the connection (lib/runtime/platform.ts). */
export type { UnixLinkEvents as AgentLinkEvents, UnixLink as AgentLink } from "../../runtime/platform.ts";
import type { UnixLink as AgentLink, UnixLinkEvents as AgentLinkEvents } from "../../runtime/platform.ts";

/**
 * Connects to the agent socket at `socketPath`. Rejects with the connect
 * error, its `code` (ENOENT, ECONNREFUSED, EACCES, ...) as node:net gives it.
 */
export function openAgentLink(socketPath: string, events: AgentLinkEvents): Promise<AgentLink> {
  return openUnixLink(socketPath, events);
}
