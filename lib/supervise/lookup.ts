// Executable lookup done before spawning, like execvp(3), so "not found"
// (127) and "found but not executable" (126) are told apart with a message
// that names the command, instead of a bare ENOENT/EACCES after the fact.
// The one lookup for pipes, terminals and jobs: a PTY backend forks before it
// execs, so without it a missing program would be a session whose screen says
// "execvp failed" and exits 1.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { SpawnError } from "./spawn-error.ts";
import type { ResolvedSpawn, SpawnSpec } from "./spec.ts";

/** execvp's fallback when the child's environment has no PATH. */
const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Absolute path of the program `name` names, or a SpawnError (127/126). */
export function resolveExecutable(name: string, searchPath: string | undefined, cwd: string): string {
  if (name === "") throw new SpawnError("not-found", "the command is empty; give a program name after --");
  if (name.includes("/")) {
    const file = path.resolve(cwd, name);
    const problem = executableProblem(file);
    if (problem === "missing") throw new SpawnError("not-found", `${name}: no such file`);
    if (problem !== null) throw new SpawnError("not-executable", `${name}: ${problem}`);
    return file;
  }
  let refused: string | null = null;
  for (const dir of (searchPath ?? DEFAULT_PATH).split(":")) {
    const file = path.resolve(cwd, dir === "" ? "." : dir, name);
    const problem = executableProblem(file);
    if (problem === null) return file;
    if (problem !== "missing" && refused === null) refused = `${file}: ${problem}`;
  }
  if (refused !== null) throw new SpawnError("not-executable", refused);
  throw new SpawnError("not-found", `${name}: command not found on PATH`);
}

/** A clear SpawnError when `cwd` does not exist or is not a directory. */
export function checkWorkingDirectory(cwd: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    throw new SpawnError("bad-cwd", `--cwd ${cwd}: no such directory; give an existing directory`);
  }
  if (!isDirectory) throw new SpawnError("bad-cwd", `--cwd ${cwd}: not a directory; give a directory`);
}

function executableProblem(file: string): "missing" | string | null {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    return "missing";
  }
  if (!isFile) return "is a directory or not a regular file, so it cannot be executed";
  try {
    accessSync(file, constants.X_OK);
    return null;
  } catch {
    return "permission denied (not executable; chmod +x it?)";
  }
}

/** Checks the spec's directory and resolves its program: the spec as a backend starts it (127/126 with a clear message first). */
export function resolveSpawn(spec: SpawnSpec): ResolvedSpawn {
  const cwd = spec.cwd ?? process.cwd();
  checkWorkingDirectory(cwd);
  return { spec, file: resolveExecutable(spec.argv[0], spec.env["PATH"], cwd), cwd };
}
