// Throw-away local users for tests of what another user on the machine can
// do (plant an agent, read a socket). Only as root: useradd, run corral as
// the user (spawn's uid/gid), and a teardown that kills every process the
// user still has, by pid, and deletes the user.
import { spawn, spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corralCommand, repoRoot, type CliResult } from "./corral-cli.ts";
import { SUITE_MARKER, isAlive } from "./processes.ts";
import { waitFor } from "./wait.ts";

export interface LocalUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
  /** A private scratch dir owned by the user, used as HOME. */
  readonly home: string;
}

/** Why users cannot be created here (or cannot run this checkout's corral), or null when they can. */
export function localUsersUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "needs root to create a second local user (useradd)";
  if (spawnSync("useradd", ["--help"]).error) return "useradd is not installed";
  return checkoutHiddenFromOthers();
}

/**
 * A new user is in no group of ours, so only the "other" permission bits let
 * it run this checkout's corral: every directory above the files must be
 * searchable and the files readable. A checkout inside a 0700 `mktemp -d`
 * is not, and the tests would fail with "Cannot find module"; they are
 * skipped with the path that hides it instead.
 */
function checkoutHiddenFromOthers(): string | null {
  const [, script] = corralCommand();
  const needed = [script ?? path.join(repoRoot, "dist", "corral.cjs"), path.join(repoRoot, "native", "build", "corral-guardian")];
  for (const file of needed) {
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      let mode: number;
      try {
        mode = statSync(dir).mode;
      } catch {
        break;
      }
      if ((mode & 0o001) === 0) return `another user cannot reach this checkout: ${dir} is mode ${(mode & 0o777).toString(8)} (others may not enter it); clone it where others can read`;
      if (path.dirname(dir) === dir) break;
    }
    try {
      if ((statSync(file).mode & 0o004) === 0) return `another user cannot read ${file} (mode ${(statSync(file).mode & 0o777).toString(8)})`;
    } catch {
      // not built: the test itself says so
    }
  }
  return null;
}

/** Creates a user with its own group; `label` keeps names readable in ps. */
export async function createLocalUser(label: string): Promise<LocalUser> {
  const name = `crl${label}${process.pid}${Math.floor(Math.random() * 1000)}`.slice(0, 30);
  // useradd fails while another one holds /etc/passwd's lock (tests run in parallel): retry.
  await waitFor(() => {
    const r = spawnSync("useradd", ["--no-create-home", "--user-group", "--shell", "/bin/sh", name], { encoding: "utf8" });
    if (r.status === 0) return true;
    if (/lock/i.test(r.stderr)) return false;
    throw new Error(`useradd ${name} failed: ${r.stderr.trim()}`);
  }, { what: `useradd ${name}`, timeoutMs: 60_000, intervalMs: 100 });
  const id = (flag: string) => Number(spawnSync("id", [flag, name], { encoding: "utf8" }).stdout.trim());
  const [uid, gid] = [id("-u"), id("-g")];
  // Teardown kills every process of this uid: it must never be root's (or NaN).
  if (!Number.isInteger(uid) || uid <= 0 || !Number.isInteger(gid) || gid <= 0) throw new Error(`id ${name} gave uid ${uid} gid ${gid}`);
  const user = { name, uid, gid, home: mkdtempSync(path.join(os.tmpdir(), `corral-home-${label}-`)) };
  chownSync(user.home, user.uid, user.gid);
  return user;
}

/** Pids of the user's live processes. */
export function processesOf(user: LocalUser): number[] {
  const pids: number[] = [];
  if (user.uid <= 0) return pids;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      if (uid === user.uid && isAlive(Number(entry))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Kills what the user still runs (each by pid), deletes the user and its scratch dir. */
export async function removeLocalUser(user: LocalUser): Promise<void> {
  await waitFor(() => {
    const left = processesOf(user);
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    return left.length === 0;
  }, { what: `every process of ${user.name} to be gone`, timeoutMs: 30_000, intervalMs: 50 });
  await waitFor(() => {
    const r = spawnSync("userdel", [user.name], { encoding: "utf8" });
    if (r.status === 0) return true;
    if (/lock/i.test(r.stderr)) return false;
    throw new Error(`userdel ${user.name} failed: ${r.stderr.trim()}`);
  }, { what: `userdel ${user.name}`, timeoutMs: 60_000, intervalMs: 100 });
  rmSync(user.home, { recursive: true, force: true });
}

/** Runs `corral ARGS` as `user` with a minimal environment plus `env` (no XDG_RUNTIME_DIR unless given). */
export function corralAs(user: LocalUser, args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  const [file, ...prefix] = corralCommand() as [string, ...string[]];
  const child = spawn(file, [...prefix, ...args], {
    cwd: repoRoot,
    uid: user.uid,
    gid: user.gid,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: user.home,
      CORRAL_AGENT_IDLE: "5m",
      CORRAL_SOCKET: "",
      ...(process.env[SUITE_MARKER] ? { [SUITE_MARKER]: process.env[SUITE_MARKER] } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => stdout.push(c));
  child.stderr.on("data", (c: Buffer) => stderr.push(c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`corral ${args.join(" ")} as ${user.name} still running after 120 s`));
    }, 120_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString("utf8"), pid: child.pid ?? -1 });
    });
  });
}
