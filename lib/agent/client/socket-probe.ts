// Before binding, probe the old socket (pueue's habit): a live one means
// another agent is serving it; a dead one is a leftover from an agent that
// died and is unlinked. Anything else at the path is not ours to remove.
import net from "node:net";
import { lstatSync, rmSync } from "node:fs";

/** Another agent answers on this socket. */
export class AgentRunningError extends Error {
  override readonly name = "AgentRunningError";
}

/** True when something accepts connections on `socket`. */
export function socketIsLive(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection(socket);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
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
