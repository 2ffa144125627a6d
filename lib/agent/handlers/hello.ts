// `hello`: the first exchange; both protocol numbers on a mismatch, and how
// to get an agent that matches.
import process from "node:process";
import { AgentError, PROTOCOL_VERSION, type HelloRequest, type ReplyBodies } from "../protocol.ts";

/** Accepts the client's protocol version or throws version_mismatch. */
export function handleHello(request: HelloRequest): ReplyBodies["hello"] {
  if (request.version !== PROTOCOL_VERSION) {
    throw new AgentError("version_mismatch", versionMismatchMessage(PROTOCOL_VERSION, request.version));
  }
  return { version: PROTOCOL_VERSION, pid: process.pid };
}

/** The one wording, used by the agent and by a client that sees a mismatch. */
export function versionMismatchMessage(agent: number, client: number): string {
  return `the running agent speaks protocol ${agent} and this corral speaks ${client}; restart it with: corral agent restart (its sessions and jobs keep running and are re-adopted)`;
}
