// Which SpawnBackend run and collect use (issue 3): the guardian when it is
// built ("auto"), or forced either way by the config key `guardian` or
// $CORRAL_GUARDIAN (auto|always|never), which wins over the config file.
import type { GuardianMode } from "../config/schema.ts";
import { locateGuardian, missingGuardian } from "../native/guardian-binary.ts";
import type { SpawnBackend } from "./backend.ts";
import { processGroupBackend } from "./process-group/pipe-backend.ts";
import { guardianSpawnBackend } from "./guardian/pipe-backend.ts";

/** The guardian was required (`always`) but cannot be used; the message says why. */
export class GuardianUnavailableError extends Error {
  override readonly name = "GuardianUnavailableError";
}

/** A backend and the one-line reason it was chosen (for --explain). */
export interface BackendChoice {
  readonly backend: SpawnBackend;
  readonly why: string;
}

const MODES: readonly GuardianMode[] = ["auto", "always", "never"];

/** The mode in force: $CORRAL_GUARDIAN when set (checked), else the config's. */
export function guardianMode(configured: GuardianMode, env: Readonly<Record<string, string | undefined>>): GuardianMode {
  const asked = env.CORRAL_GUARDIAN;
  if (asked === undefined || asked === "") return configured;
  if (!(MODES as readonly string[]).includes(asked)) {
    throw new GuardianUnavailableError(`CORRAL_GUARDIAN must be auto, always or never, got ${JSON.stringify(asked)}`);
  }
  return asked as GuardianMode;
}

/** Chooses the backend; throws GuardianUnavailableError for `always` without a usable guardian. */
export function chooseSpawnBackend(configured: GuardianMode, env: Readonly<Record<string, string | undefined>>): BackendChoice {
  const mode = guardianMode(configured, env);
  if (mode === "never") return { backend: processGroupBackend, why: "process group (guardian: never)" };
  const found = locateGuardian(env);
  if (found.built) return { backend: guardianSpawnBackend(found.path), why: `guardian ${found.path}` };
  if (mode === "always") throw new GuardianUnavailableError(`guardian: always, but ${missingGuardian(found)}`);
  return { backend: processGroupBackend, why: `process group (no guardian: ${found.why})` };
}

/**
 * True when run/collect will go through the guardian, so `collect --spill`
 * can let it write the spill file (BoundedStore externalSpill).
 */
export function spillsNatively(configured: GuardianMode, env: Readonly<Record<string, string | undefined>>): boolean {
  try {
    return chooseSpawnBackend(configured, env).backend.name === "guardian";
  } catch {
    return false;
  }
}
