// The one place that decides which PTY backend a session gets: the guardian
// when it is built (no output lost at exit, stop/continue, census terminate),
// else node-pty. Tests and `probe` can ask for one by name.
import type { PtyBackend, PtyBackendName } from "./backend.ts";
import { createGuardianBackend, guardianAvailable } from "./guardian-backend.ts";
import { nodePtyBackend } from "./node-pty-backend.ts";

/** "auto" picks the guardian when available, else node-pty. */
export type PtyBackendPreference = "auto" | PtyBackendName;

/** Where the guardian backend puts its sockets (the agent passes its state dir). */
export interface BackendChoiceOptions {
  readonly stateDir?: string;
}

/** The backend to use for new sessions; rejects when the one asked for is unavailable. */
export function choosePtyBackend(preference: PtyBackendPreference = "auto", options: BackendChoiceOptions = {}): Promise<PtyBackend> {
  switch (preference) {
    case "auto":
      return Promise.resolve(guardianAvailable() ? createGuardianBackend(options.stateDir) : nodePtyBackend);
    case "guardian":
      if (!guardianAvailable()) return Promise.reject(new Error("the guardian is not built (make -C native); use node-pty"));
      return Promise.resolve(createGuardianBackend(options.stateDir));
    case "node-pty":
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
