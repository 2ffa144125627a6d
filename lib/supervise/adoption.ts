// Taking back, as handles, the trees a restarted agent finds still running
// under their guardians: a terminal session (adoptedGuardianHandle) or a
// background job (adoptGuardianJob), through the guardian's adapter
// (guardian/tree.ts). The agent's adoption code reaches the guardian backend
// through here (the layering's backend-folder rule).
export { adoptSession as adoptedGuardianHandle, adoptJob as adoptGuardianJob } from "./guardian/tree.ts";
export { errnoName, exitFactsOf } from "./guardian/facts.ts";
