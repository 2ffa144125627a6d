// The ssh command line of a `--host` call: no terminal (-T), never a prompt
// (BatchMode: a script must not hang on a password question; ssh's own
// message says what failed), and OpenSSH's connection sharing so that
// consecutive calls reuse one authenticated connection: ControlMaster=auto
// with a private ControlPath under the state dir (0700, ours) and
// ControlPersist. $CORRAL_SSH replaces `ssh` itself (options, a config file
// with -F), as GIT_SSH_COMMAND does for git.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Buffer } from "node:buffer";
import { checkStateDir } from "../state-dir.ts";

/** How long an idle shared connection stays up after the last call. */
export const CONTROL_PERSIST = "60s";

/**
 * A Unix socket path has 108 bytes (sun_path, with its NUL): the directory,
 * "/", %C (40 hex digits) and the 17-character suffix ssh adds while it
 * creates the socket must fit.
 */
const MAX_CONTROL_DIR = 108 - 1 - 1 - 40 - 17;

/** The ssh argv that runs `remoteCommand` on `destination`. */
export function sshArgv(
  sshCommand: readonly string[],
  controlDir: string,
  destination: string,
  remoteCommand: string,
): string[] {
  return [
    ...sshCommand,
    "-T",
    "-o", "BatchMode=yes",
    "-o", "ControlMaster=auto",
    "-o", `ControlPath=${path.join(controlDir, "%C")}`,
    "-o", `ControlPersist=${CONTROL_PERSIST}`,
    "--",
    destination,
    remoteCommand,
  ];
}

/** `ssh`, or $CORRAL_SSH split at white space (no shell quoting: options and paths). */
export function sshCommandOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const words = (env.CORRAL_SSH ?? "").trim().split(/\s+/).filter((word) => word !== "");
  return words.length > 0 ? words : ["ssh"];
}

/**
 * The directory of the shared connections' sockets: `ssh` in the state dir,
 * or, when that path is too long for a socket, one under /tmp of our own.
 */
export function controlDirOf(stateDir: string, uid: number): string {
  let dir = path.join(stateDir, "ssh");
  if (Buffer.byteLength(dir) > MAX_CONTROL_DIR) dir = `/tmp/corral-ssh-${uid}`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Ours and closed, as the state dir must be: a shared connection is a login.
  checkStateDir(dir);
  return dir;
}

/** `word` as one word of a POSIX shell command (ssh hands its command to the remote shell). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
