// A child that could not be started is reported with the same exit-status
// vocabulary as one that ran (DESIGN.md 4.1): 127 not found, 126 not
// executable, and a bad working directory is a bad flag value.

/** Why a spawn failed before the child ran. */
export type SpawnFailure = "not-found" | "not-executable" | "bad-cwd" | "spawn-failed";

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
    switch (this.failure) {
      case "not-found":
        return 127;
      case "not-executable":
        return 126;
      case "bad-cwd":
        return 2;
      case "spawn-failed":
        return 125;
    }
  }
}
