// The guardian binary as the CLI sees it: where it is, building it (probe
// --build, the npm install hook), what this machine lets it do, and what is
// lost without it. What probe and the install hook need of the guardian
// backend, through the supervisor (the layering's backend-folder rule).
export { probeGuardian, type GuardianReport } from "./guardian/capabilities.ts";
export { locateGuardian, packageRoot, type GuardianSource } from "./guardian/binary.ts";
export { buildForPackage, compileGuardian, executable, findCompiler } from "./guardian/build.ts";
export { type Guarantee, guaranteesLostWithoutGuardian } from "./guardian/guarantees.ts";
