#!/usr/bin/env node
// Entry point for every runtime (Node bundle, `deno run`, `bun`). Kept tiny
// on purpose (issue 9, start-up): it turns on Node's compile cache before
// any of corral's code is loaded, answers `--version` without loading the
// CLI framework or the command table, sends the hottest commands to a
// bundle of their own (cli/hot/, built CLI only), and loads the rest
// (run-app.ts) for any other command.
import { writeSync } from "node:fs";
import module from "node:module";
import process from "node:process";
import { CORRAL_VERSION } from "./version.ts";
import { HOT_BUNDLES } from "./hot/bundles.ts";

declare global {
  interface ImportMeta {
    /** True in the built CLI (esbuild --define), where dist/hot/ exists; absent from sources. */
    readonly corralBundle?: boolean;
  }
}

// Node 22.1+: V8's compiled code for corral's modules is kept on disk
// (os.tmpdir()/node-compile-cache, or $NODE_COMPILE_CACHE), so later runs
// skip parsing and compiling. Only this process: children do not inherit it.
// Deno and Bun expose a stub or nothing; they have their own caches.
if (!("Deno" in globalThis) && process.versions.bun === undefined) {
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}

const args = process.argv.slice(2);
const hot = args[0] !== undefined && Object.hasOwn(HOT_BUNDLES, args[0]) ? HOT_BUNDLES[args[0]] : undefined;
if (args.length === 1 && args[0] === "--version") {
  // fd 1 directly: setting up process.stdout costs Bun about 10 ms.
  writeSync(1, `${CORRAL_VERSION}\n`);
} else if (import.meta.corralBundle === true && hot !== undefined) {
  // A computed URL: esbuild leaves it alone, and the bundle is its own build.
  const bundle = new URL(`./hot/${hot}.mjs`, import.meta.url).href;
  await ((await import(bundle)) as { runApp: (args: readonly string[]) => Promise<void> }).runApp(args);
} else {
  await (await import("./run-app.ts")).runApp(args);
}
