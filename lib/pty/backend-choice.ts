// The one place that decides which PTY backend a session gets: the guardian
// when it is built (no output lost at exit, stop/continue, census terminate),
// else node-pty. Tests and `probe` can ask for one by name.
import { type PtyBackend, type PtyBackendName, PtySpawnError } from "./backend.ts";
import { createGuardianBackend } from "./guardian-backend.ts";
import { locateGuardian, missingGuardian } from "../native/guardian-binary.ts";
import { nodePtyBackend } from "./node-pty-backend.ts";
import { currentRuntime } from "../runtime/self-command.ts";

// node-pty's native addon loads under Bun but its sessions die at once
// (its tty.ReadStream on the master fd is not supported there): Bun needs the guardian.
function nodePtyWorksHere(): boolean {
  return currentRuntime() !== "bun";
}

/** "auto" picks the guardian when available, else node-pty. */
export type PtyBackendPreference = "auto" | PtyBackendName;

/** Where the guardian backend puts its sockets (the agent passes its state dir). */
export interface BackendChoiceOptions {
  readonly stateDir?: string;
  /** Guardians that outlive this process and can be re-adopted (the agent's sessions). */
  readonly adoptable?: boolean;
}

/** The backend to use for new sessions; rejects when the one asked for is unavailable. */
export function choosePtyBackend(preference: PtyBackendPreference = "auto", options: BackendChoiceOptions = {}): Promise<PtyBackend> {
  switch (preference) {
    case "auto": {
      const found = locateGuardian();
      if (found.built) return Promise.resolve(createGuardianBackend(options.stateDir, options.adoptable === true));
      if (!nodePtyWorksHere()) return Promise.reject(new PtySpawnError("backend_unavailable", `under Bun, terminal sessions need the guardian: ${missingGuardian(found)}`));
      return Promise.resolve(nodePtyBackend);
    }
    case "guardian": {
      const found = locateGuardian();
      if (!found.built) return Promise.reject(new PtySpawnError("backend_unavailable", `${missingGuardian(found)}; or use node-pty`));
      return Promise.resolve(createGuardianBackend(options.stateDir, options.adoptable === true));
    }
    case "node-pty":
      if (!nodePtyWorksHere()) return Promise.reject(new PtySpawnError("backend_unavailable", "node-pty does not work under Bun; use the guardian"));
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
