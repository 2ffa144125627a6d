// How corral starts another copy of itself (the agent, a background job's
// supervisor) under the runtime it is running on now. The one place that
// knows `node dist/corral.cjs` from `deno run -A cli/main.ts` from
// `bun cli/main.ts`.
import path from "node:path";
import process from "node:process";
import { currentRuntime } from "./runtime-name.ts";

/** A command line that runs corral again, plus the directory to run it in. */
export interface SelfCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** Deno finds deno.json (and so node_modules) from its working directory. */
  readonly cwd: string;
}

/**
 * The argv that runs `corral <args>` with the same runtime and entry script
 * as this process. Node keeps its exec flags (e.g. `--import tsx` when run
 * from sources); Deno gets `--allow-all --quiet --node-modules-dir=manual`:
 * an installed copy has no deno.json, and without the flag Deno does not
 * load node-pty from the package's node_modules (no PTY backend for an agent
 * without the guardian); a source checkout's deno.json says the same.
 */
export function selfCommand(args: readonly string[]): SelfCommand {
  const script = process.argv[1];
  if (script === undefined) throw new Error("cannot tell which script is corral (process.argv[1] is missing)");
  const entry = path.resolve(script);
  const cwd = path.dirname(entry);
  switch (currentRuntime()) {
    case "deno":
      return { file: process.execPath, args: ["run", "--allow-all", "--quiet", "--node-modules-dir=manual", entry, ...args], cwd };
    case "bun":
      return { file: process.execPath, args: [entry, ...args], cwd };
    case "node":
      return { file: process.execPath, args: [...process.execArgv, entry, ...args], cwd };
  }
}
