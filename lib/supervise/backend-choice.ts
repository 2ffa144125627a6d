// The one backend decision (issue 3, issue 10): the guardian when it is built
// ("auto"), or forced either way by the config key `guardian` or
// $CORRAL_GUARDIAN (auto|always|never), which wins over the config file.
// run, collect, PTY sessions and jobs all ask here, so a setting honoured by
// one is honoured by all; what each does without a guardian (process group
// for pipes, node-pty for terminals, refusal for --tty jobs) is theirs.
import type { GuardianMode } from "../config/schema.ts";
import { locateGuardian, missingGuardian } from "./guardian/binary.ts";
import type { SpawnBackend } from "./backend.ts";
import { processGroupBackend } from "./process-group/pipe-backend.ts";
import { guardianSpawnBackend } from "./guardian/pipe-backend.ts";
import { runtimeTraits } from "../runtime/traits.ts";
import { CorralError } from "../core/corral-error.ts";

/** The guardian was required (`always`) but cannot be used; the message says why. */
export class GuardianUnavailableError extends CorralError {
  override readonly name = "GuardianUnavailableError";
  constructor(message: string) {
    super("spawn_failed", message);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Whether supervision goes through the guardian, and why (one line, for --explain). */
export interface BackendDecision {
  readonly mode: GuardianMode;
  /** The guardian binary to use; null: the fallback (no guardian, or `never`). */
  readonly guardian: string | null;
  readonly why: string;
  /** Without a guardian under `auto`: why there is none and how to build it, for a refusal's message. */
  readonly missing?: string;
}

const MODES: readonly GuardianMode[] = ["auto", "always", "never"];

/** The mode in force: $CORRAL_GUARDIAN when set (checked), else the config's. */
export function guardianMode(configured: GuardianMode, env: Env): GuardianMode {
  const asked = env.CORRAL_GUARDIAN;
  if (asked === undefined || asked === "") return configured;
  if (!(MODES as readonly string[]).includes(asked)) {
    throw new GuardianUnavailableError(`CORRAL_GUARDIAN must be auto, always or never, got ${JSON.stringify(asked)}`);
  }
  return asked as GuardianMode;
}

/** Decides; throws GuardianUnavailableError for `always` without a usable guardian (or a bad $CORRAL_GUARDIAN). */
export function decideBackend(configured: GuardianMode, env: Env): BackendDecision {
  const mode = guardianMode(configured, env);
  if (mode === "never") return { mode, guardian: null, why: "guardian: never", missing: "guardian: never is set (config key guardian or CORRAL_GUARDIAN)" };
  const found = locateGuardian(env);
  if (found.built) return { mode, guardian: found.path, why: `guardian ${found.path}` };
  if (mode === "always") throw new GuardianUnavailableError(`guardian: always, but ${missingGuardian(found)}`);
  return { mode, guardian: null, why: `no guardian: ${found.why}`, missing: missingGuardian(found) };
}

/** The runtime's part of the decision: whether node-pty's sessions live here (lib/runtime/traits.ts). */
export function nodePtyWorksHere(): boolean {
  return runtimeTraits().nodePtySessions;
}

/** A pipe backend and the one-line reason it was chosen (for --explain). */
export interface BackendChoice {
  readonly backend: SpawnBackend;
  readonly why: string;
}

/** The pipe backend for run and collect; throws GuardianUnavailableError like decideBackend. */
export function chooseSpawnBackend(configured: GuardianMode, env: Env): BackendChoice {
  const decision = decideBackend(configured, env);
  if (decision.guardian !== null) return { backend: guardianSpawnBackend(decision.guardian), why: decision.why };
  return { backend: processGroupBackend, why: `process group (${decision.why})` };
}

/**
 * True when run/collect will go through the guardian, so `collect --spill`
 * can let it write the spill file (BoundedStore externalSpill).
 */
export function spillsNatively(configured: GuardianMode, env: Env): boolean {
  try {
    return decideBackend(configured, env).guardian !== null;
  } catch {
    return false;
  }
}
