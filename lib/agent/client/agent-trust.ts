// Whoever answers on the agent socket receives every key typed into every
// session and runs every command as itself, so a client checks, on every
// connect and before it sends anything, that the agent is its own user's:
//   1. the socket's directory is ours, a real directory, closed to group and
//      others (the same test the agent's start applies, state-dir.ts);
//   2. the socket file is a socket owned by us;
//   3. the listener's credentials: Node has no SO_PEERCRED, so we find the
//      listening sockets bound at that path in /proc/net/unix and require
//      each to be held open by a process of our uid (/proc/PID/fd links read
//      `socket:[INODE]`; another user's fd table is not even readable unless
//      we are root, and then its owner's uid is compared).
// Without /proc/net/unix (not Linux) only checks 1 and 2 run (README).
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { agentPaths } from "./agent-paths.ts";
import { checkStateDir, StateDirError } from "./state-dir.ts";
import { currentUid } from "../../runtime/user-id.ts";

/** Something answers on the socket that is not provably ours: never talk to it. */
export class UntrustedAgentError extends Error {
  override readonly name = "UntrustedAgentError";
}

/** Flag of a listening socket in /proc/net/unix (__SO_ACCEPTCON). */
const ACCEPTING = 0x10000;

/** Throws UntrustedAgentError unless the agent at `socket` is provably run by our uid. */
export function verifyAgentSocket(socket: string): void {
  const refuse = (why: string): never => {
    throw new UntrustedAgentError(`refusing the agent socket ${socket}: ${why}`);
  };
  const uid = currentUid();
  try {
    checkStateDir(path.dirname(socket));
  } catch (error) {
    if (error instanceof StateDirError) refuse(error.message);
    refuse(`cannot check its directory: ${(error as Error).message}`);
  }
  let stat;
  try {
    stat = lstatSync(socket);
  } catch (error) {
    return refuse(`cannot check it: ${(error as Error).message}`);
  }
  if (!stat.isSocket()) refuse("it is not a socket");
  if (stat.uid !== uid) refuse(`it is owned by uid ${stat.uid}, not by you (uid ${uid})`);
  let listeners = listenersAt(socket);
  // The kernel writes /proc/net/unix a piece per read, walking a table that
  // other processes change meanwhile: on a busy machine one read can miss a
  // line. The connect already reached a listener, so an empty answer is read
  // again before it counts (a planted file stays empty every time).
  for (let again = 0; listeners !== null && listeners.length === 0 && again < 3; again++) listeners = listenersAt(socket);
  if (listeners === null) return;
  if (listeners.length === 0) refuse("no listening socket is bound at that path (was it moved there from elsewhere?)");
  const holders = listenerHolders(new Set(listeners), uid, agentPaths(socket).pid);
  for (const inode of listeners) {
    const holder = holders.get(inode);
    if (holder === undefined) refuse(`the process listening on it is not yours (uid ${uid}); another user may have planted it`);
    else if (holder.uid !== uid) refuse(`the process listening on it (pid ${holder.pid}) runs as uid ${holder.uid}, not as you (uid ${uid})`);
  }
}

/** Inodes of the sockets listening at `socket`; null when /proc/net/unix cannot be read. */
function listenersAt(socket: string): string[] | null {
  let table: string;
  try {
    table = readFileSync("/proc/net/unix", "utf8");
  } catch {
    return null;
  }
  const wanted = canonical(socket);
  const inodes: string[] = [];
  for (const line of table.split("\n").slice(1)) {
    // Num: RefCount Protocol Flags Type St Inode Path (the path may hold spaces).
    const fields = /^\s*\S+:\s+\S+\s+\S+\s+([0-9A-Fa-f]+)\s+\S+\s+\S+\s+(\d+) (.+)$/.exec(line);
    if (fields === null || (Number.parseInt(fields[1] as string, 16) & ACCEPTING) === 0) continue;
    const bound = fields[3] as string;
    if (bound === socket || (path.basename(bound) === path.basename(socket) && canonical(bound) === wanted)) {
      inodes.push(fields[2] as string);
    }
  }
  return inodes;
}

/** The path with its directory's symlinks resolved, so `/link/a.sock` and `/real/a.sock` compare equal. */
function canonical(file: string): string {
  // A listener whose directory is gone (an agent whose state dir was removed)
  // is not resolved: a realpath that fails loads the real node:fs under
  // Deno's stand-in (lib/runtime/deno/builtins/fs.ts), for nothing.
  if (!existsSync(path.dirname(file))) return file;
  try {
    return path.join(realpathSync(path.dirname(file)), path.basename(file));
  } catch {
    return file;
  }
}

interface Holder {
  readonly pid: number;
  readonly uid: number;
}

/**
 * Which process holds each listener: the pid file's agent first (the usual
 * case, one fd table read), else every process we may read. Processes of
 * other users are skipped unless we are root (their fd tables are closed to us).
 */
function listenerHolders(inodes: ReadonlySet<string>, uid: number, pidFile: string): Map<string, Holder> {
  const found = new Map<string, Holder>();
  const visit = (pid: number) => {
    let owner: number;
    try {
      owner = statSync(`/proc/${pid}`).uid;
    } catch {
      return;
    }
    if (owner !== uid && uid !== 0) return;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      return;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode) && !found.has(inode)) found.set(inode, { pid, uid: owner });
    }
  };
  const recorded = Number.parseInt(safeRead(pidFile), 10);
  if (Number.isInteger(recorded) && recorded > 0) visit(recorded);
  if (found.size === inodes.size) return found;
  for (const name of safeList("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === recorded) continue;
    visit(Number(name));
    if (found.size === inodes.size) break;
  }
  return found;
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

