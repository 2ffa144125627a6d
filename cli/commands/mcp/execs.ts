// The terminal_exec requests this server holds open: each waits for its
// command on an agent connection of its own, also between calls (under a
// cursor). When the client goes away they are let go of, so the server can
// exit at once; the commands themselves go on in their sessions, which
// belong to the agent (closing the connection only ends the agent's watch).
import type { AgentClient } from "../../../lib/agent/client/client.ts";

/** Open exec connections of this server. */
export class ExecConnections {
  readonly #open = new Set<AgentClient>();

  /** Holds `client` until `release` (its answer came) or `closeAll`. */
  hold(client: AgentClient): void {
    this.#open.add(client);
  }

  /** Closes `client` (its exec answered, or the wait was cancelled). */
  release(client: AgentClient): void {
    this.#open.delete(client);
    client.close();
  }

  /** The client went away: every exec still waiting stops waiting; the commands keep running. */
  closeAll(): void {
    for (const client of this.#open) client.close();
    this.#open.clear();
  }
}
