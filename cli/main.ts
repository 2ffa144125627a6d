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
import { fileURLToPath } from "node:url";
import { CORRAL_VERSION } from "./version.ts";
import { entryRoute } from "./hot/bundles.ts";
import { loadHotBundle } from "./hot/load-bundle.ts";

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
const route = entryRoute(args);
if (route.kind === "version") {
  // fd 1 directly: setting up process.stdout costs Bun about 10 ms.
  writeSync(1, `${CORRAL_VERSION}\n`);
} else if (import.meta.corralBundle === true && route.kind === "hot") {
  // A computed path: esbuild leaves it alone, and the bundle is its own build.
  await loadHotBundle(fileURLToPath(new URL(`./hot/${route.bundle}.cjs`, import.meta.url))).runApp(args);
} else {
  await (await import("./run-app.ts")).runApp(args);
}
