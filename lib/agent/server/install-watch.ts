// Whether the files this agent was started from are still the ones on disk.
// An upgrade (a newer corral installed over this one) or a rebuild replaces
// them while the agent runs on, holding its sessions and jobs. The agent
// loads a command's code when it first serves it, so such an agent failed
// every command line the native client asked of it (a chunk the new build
// no longer has: ERR_MODULE_NOT_FOUND, a stack trace in the log each call),
// and would have answered with the old build's code where it had it. Once
// its entry file is not the one it started from, it serves no command line
// (the client hands them to the JavaScript CLI of the new files, which
// speaks the same protocol) and `agent status` says so: `corral agent
// restart` brings up the new build; sessions and jobs survive it.
import { realpathSync, statSync } from "node:fs";
import path from "node:path";

/** The entry file's identity: the same path replaced or rewritten is another file. */
function identityOf(file: string): string | null {
  try {
    const stat = statSync(file);
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

function realRoot(dir: string): string | null {
  try {
    return realpathSync(dir);
  } catch {
    return null;
  }
}

export class InstallWatch {
  readonly #file: string | undefined;
  readonly #startedFrom: string | null;
  /**
   * The install the agent runs from: the directory above its entry's
   * (dist/corral.cjs, or cli/main.ts in a checkout), as the native client
   * names its own (the directory above dist/corral); null when unknown.
   */
  readonly root: string | null;

  /** `file`: the agent's entry script; undefined (an agent run in a test's process) is never replaced. */
  constructor(file: string | undefined) {
    this.#file = file;
    this.#startedFrom = file === undefined ? null : identityOf(file);
    this.root = file === undefined ? null : realRoot(path.dirname(path.dirname(file)));
  }

  /** True once the entry file was replaced, changed or removed since the agent started. */
  replaced(): boolean {
    if (this.#file === undefined || this.#startedFrom === null) return false;
    return identityOf(this.#file) !== this.#startedFrom;
  }
}
