// What the entry (cli/main.ts) needs of its runtime before anything else
// loads: the arguments, a write to fd 1, and which built form of a command
// this runtime runs fastest. No imports but runtime-name.ts: under Deno the
// first touch of `process` costs about 18 ms and any `node:` module 8-30 ms,
// so Deno's arguments and stdout come from its own API.
import { currentRuntime } from "./runtime-name.ts";

/** What this file uses of Deno's own API (no Deno types in this project). */
interface DenoEntryApi {
  readonly args: readonly string[];
  readonly stdout: { writeSync(data: Uint8Array): number };
}

/** The entry's view of its runtime. */
export interface EntryRuntime {
  /**
   * Node's way: the built CLI runs through dist/corral.cjs (no ESM loader for
   * the hot path) and its hot bundles from V8's code cache (cli/hot/load-bundle.ts).
   */
  readonly nodeEntry: boolean;
  /** Hot bundles are ES modules of their own (dist/hot/deno/): Deno (cli/hot/build.mjs says why). */
  readonly esmHotBundles: boolean;
  /** Hot bundles have a copy with the runtime's bytecode (dist/hot/<name>.bun.cjs): Bun. */
  readonly bytecodeHotBundles: boolean;
  /** The command line's arguments after the script. */
  args(): readonly string[];
  /** Writes `text` to fd 1 directly, whole. */
  writeStdout(text: string): Promise<void>;
}

/** This runtime, as the entry sees it. */
export function entryRuntime(): EntryRuntime {
  const runtime = currentRuntime();
  const deno = runtime === "deno" ? (globalThis as unknown as { readonly Deno: DenoEntryApi }).Deno : undefined;
  return {
    nodeEntry: runtime === "node",
    esmHotBundles: deno !== undefined,
    bytecodeHotBundles: runtime === "bun",
    args: () => (deno !== undefined ? deno.args : process.argv.slice(2)),
    writeStdout: (text) => writeStdout(deno, text),
  };
}

/**
 * Writes `text` to fd 1 directly: setting up process.stdout costs Bun about
 * 10 ms, and Deno's own stdout needs no `node:` module at all.
 */
async function writeStdout(deno: DenoEntryApi | undefined, text: string): Promise<void> {
  if (deno === undefined) {
    (await import("node:fs")).writeSync(1, text);
    return;
  }
  const bytes = new TextEncoder().encode(text);
  for (let done = 0; done < bytes.length; ) done += deno.stdout.writeSync(bytes.subarray(done));
}
