// A PTY backend forks before it execs, so a missing program would show up as
// a session whose screen says "execvp failed" and that exits 1. Resolving the
// command first turns that into the same typed failure `run` reports
// (not found -> 127, not executable -> 126) before anything is started.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { SpawnError } from "./spawn-error.ts";

/** The absolute path `command` would exec to under `envPath`, or a SpawnError. */
export function resolveCommand(command: string, envPath: string | undefined, cwd: string): string {
  if (command === "") throw new SpawnError("not-found", "the command is empty; give a program name, e.g. -- bash");
  if (command.includes("/")) {
    const full = path.resolve(cwd, command);
    checkExecutable(full, command);
    return full;
  }
  let sawNonExecutable = false;
  for (const dir of (envPath ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
    const full = path.resolve(cwd, dir === "" ? "." : dir, command);
    if (!isFile(full)) continue;
    if (isExecutable(full)) return full;
    sawNonExecutable = true;
  }
  if (sawNonExecutable) {
    throw new SpawnError("not-executable", `${command} was found on PATH but is not executable`);
  }
  throw new SpawnError("not-found", `${command} was not found on PATH; give an installed program or a path`);
}

/** The directory a session starts in, checked so a typo is a clear error. */
export function checkCwd(cwd: string): void {
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new SpawnError("bad-cwd", `--cwd ${cwd} is not an existing directory`);
}

function checkExecutable(full: string, shown: string): void {
  if (!isFile(full)) {
    // As `run` says it (lib/supervise/lookup.ts): something is there, exec cannot run it -> 126.
    if (exists(full)) throw new SpawnError("not-executable", `${shown}: is a directory or not a regular file, so it cannot be executed`);
    throw new SpawnError("not-found", `${shown} does not exist`);
  }
  if (!isExecutable(full)) throw new SpawnError("not-executable", `${shown} is not executable`);
}

function isFile(full: string): boolean {
  try {
    return statSync(full).isFile();
  } catch {
    return false;
  }
}

function exists(full: string): boolean {
  try {
    statSync(full);
    return true;
  } catch {
    return false;
  }
}

function isExecutable(full: string): boolean {
  try {
    accessSync(full, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
