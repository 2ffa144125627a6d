// Which PTY backend a session gets: under "auto", the one backend decision
// (backend-choice.ts: the config key `guardian` and $CORRAL_GUARDIAN) says
// whether the guardian is used (no output lost at exit, stop/continue, census
// terminate); without it, node-pty. Tests and `probe` can ask for one by name.
import type { PtyBackend, PtyBackendName } from "./handle.ts";
import { SpawnError } from "./spawn-error.ts";
import { createGuardianBackend } from "./guardian/pty-backend.ts";
import { locateGuardian, missingGuardian } from "../native/guardian-binary.ts";
import { nodePtyBackend } from "./node-pty/pty-backend.ts";
import type { GuardianMode } from "../config/schema.ts";
import { type BackendDecision, decideBackend, nodePtyWorksHere } from "./backend-choice.ts";


/** "auto" picks the guardian when available, else node-pty. */
export type PtyBackendPreference = "auto" | PtyBackendName;

/** Where the guardian backend puts its sockets (the agent passes its state dir). */
export interface BackendChoiceOptions {
  readonly stateDir?: string;
  /** The configured guardian mode (config key `guardian`); $CORRAL_GUARDIAN in `env` wins. Default "auto". */
  readonly guardian?: GuardianMode;
  /** Where $CORRAL_GUARDIAN and the guardian's location are read; default this process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Guardians that outlive this process and can be re-adopted (the agent's sessions, issue 11). */
  readonly adoptable?: boolean;
  /** How long an adoptable guardian waits for a new owner (config `agent.orphan-wait`); default: as long as its program lives. */
  readonly orphanWaitMs?: number;
}

/** The backend to use for new sessions; rejects when the one asked for is unavailable. */
export function choosePtyBackend(preference: PtyBackendPreference = "auto", options: BackendChoiceOptions = {}): Promise<PtyBackend> {
  switch (preference) {
    case "auto": {
      let decision: BackendDecision;
      try {
        decision = decideBackend(options.guardian ?? "auto", options.env ?? process.env);
      } catch (error) {
        return Promise.reject(new SpawnError("backend-unavailable", (error as Error).message));
      }
      if (decision.guardian !== null) return Promise.resolve(createGuardianBackend(options.stateDir, options.adoptable === true, options.orphanWaitMs));
      if (!nodePtyWorksHere()) return Promise.reject(new SpawnError("backend-unavailable", `under Bun, terminal sessions need the guardian: ${decision.missing ?? decision.why}`));
      return Promise.resolve(nodePtyBackend);
    }
    case "guardian": {
      const found = locateGuardian();
      if (!found.built) return Promise.reject(new SpawnError("backend-unavailable", `${missingGuardian(found)}; or use node-pty`));
      return Promise.resolve(createGuardianBackend(options.stateDir, options.adoptable === true, options.orphanWaitMs));
    }
    case "node-pty":
      if (!nodePtyWorksHere()) return Promise.reject(new SpawnError("backend-unavailable", "node-pty does not work under Bun; use the guardian"));
      return Promise.resolve(nodePtyBackend);
  }
}

/** Every backend that can start a session here (tests run against each). */
export async function availablePtyBackends(): Promise<PtyBackendName[]> {
  const names: PtyBackendName[] = [];
  for (const name of ["guardian", "node-pty"] as const) {
    try {
      await choosePtyBackend(name);
      names.push(name);
    } catch {
      // not available on this machine or runtime
    }
  }
  return names;
}
