// `hello`: the first exchange; both protocol numbers on a mismatch, and how
// to get an agent that matches.
import process from "node:process";
import { AgentError, type HelloRequest, type ReplyBodies } from "../../protocol/messages.ts";
import { PROTOCOL_VERSION, versionMismatchMessage } from "../../protocol/version.ts";

/** Accepts the client's protocol version or throws version_mismatch. */
export function handleHello(request: HelloRequest): ReplyBodies["hello"] {
  if (request.version !== PROTOCOL_VERSION) {
    throw new AgentError("version_mismatch", versionMismatchMessage(PROTOCOL_VERSION, request.version));
  }
  return { version: PROTOCOL_VERSION, pid: process.pid };
}
