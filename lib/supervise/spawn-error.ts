// A child that could not be started is reported with the same exit-status
// vocabulary as one that ran (DESIGN.md 4.1): 127 not found, 126 not
// executable, and a bad working directory is a bad flag value.
import { ExitStatus } from "../core/exit-status.ts";

/** Why a spawn failed before the child ran. */
export type SpawnFailure = "not-found" | "not-executable" | "bad-cwd" | "spawn-failed";

const EXIT_STATUS: Record<SpawnFailure, number> = {
  "not-found": ExitStatus.notFound,
  "not-executable": ExitStatus.notExecutable,
  "bad-cwd": ExitStatus.usage,
  "spawn-failed": ExitStatus.corralFailure,
};

/** One error class, told apart by `failure` (execa's habit). */
export class SpawnError extends Error {
  override readonly name = "SpawnError";
  readonly failure: SpawnFailure;

  constructor(failure: SpawnFailure, message: string) {
    super(message);
    this.failure = failure;
  }

  /** The status a shell-facing command exits with for this failure. */
  get exitStatus(): number {
    return EXIT_STATUS[this.failure];
  }
}
