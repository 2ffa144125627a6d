// A connection to a Unix socket through the runtime's cheapest way: the seam
// of platform.ts for the agent link (lib/agent/client/agent-link.ts says what
// each way saves). Each way is a file of its own, loaded only when chosen.
import { currentRuntime } from "./runtime-name.ts";
import type { UnixLink, UnixLinkEvents } from "./platform.ts";

/**
 * Connects to the Unix socket at `socketPath`. Rejects with the connect
 * error, its `code` (ENOENT, ECONNREFUSED, EACCES, ...) as node:net gives it.
 */
export async function openUnixLink(socketPath: string, events: UnixLinkEvents): Promise<UnixLink> {
  switch (currentRuntime()) {
    case "bun":
      return (await import("./bun/unix-link.ts")).openBunLink(socketPath, events);
    case "deno":
      return (await import("./deno/unix-link.ts")).openDenoLink(socketPath, events);
    case "node":
      return (await import("./node/unix-link.ts")).openNetLink(socketPath, events);
  }
}
