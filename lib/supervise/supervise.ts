// The entry point callers use: check the working directory, resolve the
// program (127/126 with a clear message), then start the pipe tree through a
// backend's adapter (the process group's unless another is named).
import type { TreeAdapter } from "./adapter.ts";
import type { SupervisedTree } from "./handle.ts";
import { processGroupTree } from "./process-group/tree.ts";
import { resolveSpawn } from "./lookup.ts";
import type { SpawnSpec } from "./spec.ts";
import { SpawnError } from "./spawn-error.ts";

/** Starts `spec` as a pipe tree under `adapter`; rejects with SpawnError when it cannot start. */
export async function supervise(spec: SpawnSpec, adapter: TreeAdapter = processGroupTree): Promise<SupervisedTree> {
  const start = adapter.startPipe;
  if (start === undefined) throw new SpawnError("backend-unavailable", `${adapter.name} cannot hold a pipe tree`);
  return await start(resolveSpawn(spec));
}
