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

/** The longest Unix socket path Linux takes: sun_path's 108 bytes less the closing NUL. */
export const SOCKET_PATH_MAX = 107;
/** The longest name put beside the agent's socket: a guardian's `guardian-PID-HEX.sock` (7-digit pid). */
const LONGEST_SOCKET_NAME = "guardian-4194304-0123456789ab.sock".length;
/** The longest state dir every socket corral makes in it fits below. */
export const STATE_DIR_MAX = SOCKET_PATH_MAX - 1 - LONGEST_SOCKET_NAME;

/**
 * Refuses a socket path the kernel would not take whole: Node binds and
 * connects to a longer one cut at 107 bytes (a stray socket in a parent
 * dir, then a puzzling ENOENT). Said before anything is created.
 */
export function checkSocketPath(socket: string): void {
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  const dir = path.dirname(socket);
  if (bytes(dir) > STATE_DIR_MAX) {
    throw new StateDirError(
      `the state dir ${dir} is ${bytes(dir)} bytes long; the sockets made in it must fit in ${SOCKET_PATH_MAX} bytes, so it may be at most ${STATE_DIR_MAX}: set CORRAL_STATE_DIR (or CORRAL_SOCKET) to a shorter path`,
    );
  }
  if (bytes(socket) > SOCKET_PATH_MAX) {
    throw new StateDirError(
      `the agent socket path ${socket} is ${bytes(socket)} bytes long; a Unix socket path may be at most ${SOCKET_PATH_MAX} bytes: set CORRAL_STATE_DIR (or CORRAL_SOCKET) to a shorter path`,
    );
  }
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

