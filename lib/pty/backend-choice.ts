// The one place that decides which PTY backend a session gets: the guardian
// when it is built (no output lost at exit, stop/continue, census terminate),
// else node-pty. Tests and `probe` can ask for one by name.
import type { PtyBackend, PtyBackendName } from "./backend.ts";
import { nodePtyBackend } from "./node-pty-backend.ts";

/** "auto" picks the guardian when available, else node-pty. */
export type PtyBackendPreference = "auto" | PtyBackendName;

/** The backend to use for new sessions. */
export function choosePtyBackend(preference: PtyBackendPreference = "auto"): Promise<PtyBackend> {
  switch (preference) {
    case "auto":
    case "node-pty":
      return Promise.resolve(nodePtyBackend);
    case "guardian":
      return Promise.reject(new Error("the guardian PTY backend is not available yet; use node-pty"));
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
