// Where the agent keeps its socket, lock and log (DESIGN.md 4.6). The
// directory is the security boundary: whoever can enter it can drive every
// session, so an existing one is accepted only when it is ours and closed to
// group and others. The guardian's probe reuses these checks.
import { lstatSync, mkdirSync, chmodSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { currentUid } from "../../runtime/user-id.ts";

/** A state dir that may not be used; the message says why and what would do. */
export class StateDirError extends Error {
  override readonly name = "StateDirError";
}

type Env = Readonly<Record<string, string | undefined>>;

/** The state dir path the environment asks for, without touching the disk. */
export function stateDirPath(env: Env = process.env): string {
  if (env.CORRAL_STATE_DIR) return path.resolve(env.CORRAL_STATE_DIR);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, "corral");
  return `/tmp/corral-${currentUid()}`;
}

/** The agent's socket: `--socket`, else `$CORRAL_SOCKET`, else in the state dir. */
export function socketPath(env: Env = process.env, override?: string): string {
  if (override) return path.resolve(override);
  if (env.CORRAL_SOCKET) return path.resolve(env.CORRAL_SOCKET);
  return path.join(stateDirPath(env), "agent.sock");
}

/**
 * Creates the state dir 0700 when missing; accepts an existing one only when
 * it is a real directory owned by us with no group/other permission bits.
 * Returns its path. Throws StateDirError otherwise.
 */
export function ensureStateDir(dir: string = stateDirPath()): string {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StateDirError(`cannot create state dir ${dir}: ${(error as Error).message}; set CORRAL_STATE_DIR to a directory you own`);
  }
  checkStateDir(dir);
  return dir;
}

/** The ownership and mode checks of ensureStateDir, for `probe` to report. */
export function checkStateDir(dir: string): void {
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new StateDirError(`state dir ${dir} is not a directory; remove it or set CORRAL_STATE_DIR`);
  }
  const uid = currentUid();
  if (stat.uid !== uid) {
    throw new StateDirError(
      `state dir ${dir} is owned by uid ${stat.uid}, not by you (uid ${uid}); use a directory you own (CORRAL_STATE_DIR)`,
    );
  }
  if ((stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(4, "0");
    throw new StateDirError(
      `state dir ${dir} has mode ${mode}, open to group or others; it must be 0700 (chmod 700 ${dir})`,
    );
  }
}

/** Tightens a file we just created (the socket) to owner read/write only. */
export function restrictToOwner(file: string): void {
  chmodSync(file, 0o600);
}

