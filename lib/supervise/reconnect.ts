// Reaching a guardian that a previous owner left running (the agent restarted,
// or died and `corral reap` finishes its jobs): what lib/agent and lib/jobs
// need of the guardian's client, through the supervisor rather than into its
// backend folder (the layering's backend-folder rule).
export { connectGuardian } from "./guardian/launch.ts";
export type { Guardian } from "./guardian/client.ts";
export type { AdoptFacts, StreamId, WelcomeEvent } from "./guardian/protocol.ts";
