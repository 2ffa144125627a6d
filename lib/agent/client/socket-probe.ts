// Before binding, probe the old socket (pueue's habit): a live one means
// another agent is serving it; a dead one is a leftover from an agent that
// died and is unlinked. Anything else at the path is not ours to remove.
import { lstatSync, rmSync } from "node:fs";
import { openAgentLink } from "./agent-link.ts";

/** Another agent answers on this socket. */
export class AgentRunningError extends Error {
  override readonly name = "AgentRunningError";
}

/** True when something accepts connections on `socket`. */
export async function socketIsLive(socket: string): Promise<boolean> {
  const ignore = () => {};
  try {
    (await openAgentLink(socket, { data: ignore, error: ignore, close: ignore })).close();
    return true;
  } catch {
    return false;
  }
}

/** Unlinks a dead socket; throws when a live agent or a non-socket is there. */
export async function clearStaleSocket(socket: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(socket).isSocket();
  } catch {
    return;
  }
  if (!isSocket) {
    throw new Error(`${socket} exists and is not a socket; remove it or choose another --socket`);
  }
  if (await socketIsLive(socket)) {
    throw new AgentRunningError(`an agent is already running on ${socket} (corral agent status)`);
  }
  rmSync(socket, { force: true });
}
