// The one error for "no agent answers and none could be started", in a
// module of its own so that code reporting it need not load the client.

/** The agent could not be reached or started; the message says why. */
export class AgentUnavailableError extends Error {
  override readonly name = "AgentUnavailableError";
}
