// Why a connection ended under a command that held it open (an attach, a
// job in the foreground): when a remote call's transport was cut (ssh
// killed, the network gone), that is its own fact, status 255 with the line
// that says what runs there lives on, never the program's outcome.
import type { AgentClient } from "../../lib/agent/client/client.ts";
import { AgentError } from "../../lib/agent/protocol/messages.ts";

/** The transport's loss that closed `client`, or null (an agent that went away, or still open). */
export async function lostConnection(client: AgentClient): Promise<AgentError | null> {
  // A request on a closed client fails at once with the error its link closed with.
  const cause = await client.call({ op: "jobs" }).then(() => null, (error: unknown) => error);
  return cause instanceof AgentError && cause.code === "connection_lost" ? cause : null;
}
