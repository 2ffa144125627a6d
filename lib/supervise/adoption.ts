// Taking back, as handles, the trees a restarted agent finds still running
// under their guardians: a terminal session (adoptedGuardianHandle) or a
// background job (adoptGuardianJob). The agent's adoption code reaches the
// guardian backend through here (the layering's backend-folder rule).
export { adoptedGuardianHandle } from "./guardian/pty-backend.ts";
export { adoptGuardianJob } from "./guardian/job-tree.ts";
