// Which PTY backend a session gets: the one decision of start.ts
// (chooseSupervisor, a terminal swept by its owner) as a PtyBackend the
// session starts its program with. Tests and `probe` can ask for one by name.
import type { PtyBackend, PtyBackendName } from "./handle.ts";
import type { GuardianMode } from "../config/schema.ts";
import { chooseSupervisor, ptyBackendOf } from "./start.ts";

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

/** The backend to use for new sessions; rejects (SpawnError) when the one asked for is unavailable. */
export function choosePtyBackend(preference: PtyBackendPreference = "auto", options: BackendChoiceOptions = {}): Promise<PtyBackend> {
  try {
    return ptyBackendOf(chooseSupervisor({
      mode: "pty",
      sweep: "by-owner",
      prefer: preference,
      ...(options.guardian !== undefined ? { guardian: options.guardian } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    }), {
      ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
      adoptable: options.adoptable === true,
      ...(options.orphanWaitMs !== undefined ? { orphanWaitMs: options.orphanWaitMs } : {}),
    });
  } catch (error) {
    return Promise.reject(error);
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
