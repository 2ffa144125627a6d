// The private directory of a `run`/`collect` guardian's socket. It is needed
// only until the guardian answered (nothing reconnects to a run's guardian),
// so it is removed as soon as the connection stands; a corral SIGKILLed in
// the few milliseconds before leaves one behind, which the next run removes:
// the name carries the creator's pid, and a dir of ours whose creator is
// gone is stale.
import { lstatSync, mkdtempSync, readdir, readdirSync, rmdirSync, rmSync, unlinkSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { socketBaseDir } from "../../native/socket-base-dir.ts";
import { currentUid } from "../../runtime/user-id.ts";

const PREFIX = "corral-run-";

/** Creates the dir (0700, mkdtemp), and starts sweeping stale ones. */
export function makeRunSocketDir(): string {
  void sweepStaleRunDirs();
  return mkdtempSync(path.join(socketBaseDir(), `${PREFIX}${process.pid}-`));
}

/**
 * Removes a run's socket dir (the guardian's socket, if still there, and the
 * dir). By hand rather than rmSync's recursive mode, which loads Node's
 * rimraf module on every `corral run` (about 1.5 ms of its start). Never
 * throws: a dir left behind is swept by the next run.
 */
export function removeRunSocketDir(dir: string): void {
  try {
    for (const name of readdirSync(dir)) unlinkSync(path.join(dir, name));
    rmdirSync(dir);
  } catch {
    // gone already, or not ours to remove
  }
}

/**
 * Removes stale dirs: ours (owner), named with a pid that no longer runs.
 * It lists the whole temp dir, thousands of entries on a busy machine (5-20
 * ms of the kernel's time here, issue 9): the listing runs in libuv's thread
 * pool while the guardian and the child start, and the pending read keeps
 * the process alive until the sweep is done (the callback API: fs/promises
 * would cost eight more internal modules to compile at every start). Never
 * rejects.
 */
export async function sweepStaleRunDirs(tmp: string = socketBaseDir()): Promise<void> {
  const names = await new Promise<string[] | null>((resolve) => readdir(tmp, (error, found) => resolve(error ? null : found)));
  if (names === null) return;
  const uid = currentUid();
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(/^corral-run-(\d+)-[A-Za-z0-9]{6}$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) continue;
    const dir = path.join(tmp, name);
    try {
      const stat = lstatSync(dir);
      if (!stat.isDirectory() || stat.uid !== uid) continue;
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // raced with another sweeper, or not ours to remove
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
