// The entry point callers use: check the working directory, resolve the
// program (127/126 with a clear message), then hand the child to a backend.
import process from "node:process";
import type { SpawnBackend, SupervisedProcess } from "./backend.ts";
import { processGroupBackend } from "./process-group/pipe-backend.ts";
import { checkWorkingDirectory, resolveExecutable } from "./lookup.ts";
import type { SpawnSpec } from "./spec.ts";

/** Starts `spec` under `backend`; rejects with SpawnError when it cannot start. */
export async function supervise(spec: SpawnSpec, backend: SpawnBackend = processGroupBackend): Promise<SupervisedProcess> {
  const cwd = spec.cwd ?? process.cwd();
  checkWorkingDirectory(cwd);
  const file = resolveExecutable(spec.argv[0], spec.env["PATH"], cwd);
  return await backend.start({ spec, file, cwd });
}
