// The agent link over node:net (Node, Deno): agent-link.ts says when.
import net from "node:net";
import type { UnixLink as AgentLink, UnixLinkEvents as AgentLinkEvents } from "../platform.ts";

export function openNetLink(socketPath: string, events: AgentLinkEvents): Promise<AgentLink> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      socket.on("data", (chunk: Buffer) => events.data(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)));
      socket.on("error", (error) => events.error(error));
      socket.on("close", () => events.close());
      resolve({
        write: (bytes) => {
          if (!socket.destroyed) socket.write(bytes);
        },
        pause: () => socket.pause(),
        resume: () => socket.resume(),
        close: () => {
          socket.end();
          socket.destroy();
        },
        get closed() {
          return socket.destroyed;
        },
      });
    });
  });
}
