// Where native/build/corral-job-shim is: beside the guardian binary in use.
// Without it a PTY job still runs, but Ctrl-Z cannot stop it (see the
// header of native/job-shim.c), so `run --tty` says so up front.
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** The shim's path next to `guardianBinary`, or null when it is not built. */
export function locateJobShim(guardianBinary: string): string | null {
  const file = path.join(path.dirname(guardianBinary), "corral-job-shim");
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return null;
  }
}
