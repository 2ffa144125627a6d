#!/usr/bin/env node
// Node's entry: package.json "bin" is dist/corral.cjs, built from this file
// as CommonJS (npm run build:ts). Why a second entry beside cli/main.ts
// (issue 9, start-up): an ES module as the main script costs Node 20 its
// ESM loader, about 6 ms of CPU before a line of corral runs and more for
// each `node:` module imported through it; a CommonJS main pays none of
// that. So the hottest commands go from here straight to their bundle,
// through V8's code cache (hot/load-bundle.ts), and everything else loads
// the command table (dist/corral-app.mjs, an ES module). Deno and Bun run
// dist/corral.mjs (cli/main.ts) or the sources.
import { writeSync } from "node:fs";
import module from "node:module";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { CORRAL_VERSION } from "./shared/version.ts";
import { entryRoute } from "./hot/bundles.ts";
import { loadHotBundle } from "./hot/load-bundle.ts";
import { restoreHeldNodeCerts } from "../lib/runtime/held-node-certs.ts";

// CommonJS's own: the directory of dist/corral.cjs, symlinks resolved (npm's bin link is one).
declare const __dirname: string;

// Before anything could start a program with the environment this runtime started with.
restoreHeldNodeCerts(process.env);
const args = process.argv.slice(2);
const route = entryRoute(args);
if (route.kind === "version") {
  writeSync(1, `${CORRAL_VERSION}\n`);
} else if (route.kind === "hot") {
  // A rejection ends the process as a top-level await's would: message on stderr, status 1.
  void loadHotBundle(path.join(__dirname, "hot", `${route.bundle}.cjs`)).runApp(args);
} else {
  // Node 22.1+: V8's compiled code for the command table's modules is kept on
  // disk (os.tmpdir()/node-compile-cache, or $NODE_COMPILE_CACHE), so later
  // runs skip parsing and compiling them. Only this process: children do not
  // inherit it. Node 20 has no such API.
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // A computed specifier: esbuild leaves it alone, and dist/corral-app.mjs is its own build.
  void import(pathToFileURL(path.join(__dirname, "corral-app.mjs")).href).then((app: { runApp(args: readonly string[]): Promise<void> }) => app.runApp(args));
}
