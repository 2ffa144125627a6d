#!/usr/bin/env node
// Entry point for every runtime (Node bundle, `deno run`, `bun`). Kept tiny
// on purpose (issue 9, start-up): built on its own as dist/corral.mjs
// (cli/hot/build.mjs), it imports no `node:` module up front, answers
// `--version` without loading the CLI framework or the command table,
// sends the hottest commands to a bundle of their own (cli/hot/, built CLI
// only), and loads the rest (run-app.ts; dist/corral-app.mjs when built) for
// any other command. Under Deno every `node:` module costs on first import
// (node:module 27 ms, node:fs 28, node:process 18, node:url 8 over `deno run`
// of an empty file), so Deno's `--version` touches none, and a bundle or the
// command table is reached with a plain import(), which needs none either.
import { CORRAL_VERSION } from "./shared/version.ts";
import { BUN_BYTECODE_BUNDLES, entryRoute } from "./hot/bundles.ts";
import { entryRuntime } from "../lib/runtime/entry.ts";

declare global {
  interface ImportMeta {
    /** True in the built CLI (esbuild --define), where dist/hot/ exists; absent from sources. */
    readonly corralBundle?: boolean;
  }
}

/** What a hot bundle (cli/hot/<name>.ts) or the command table (run-app.ts) exports. */
interface RunsApp {
  runApp(args: readonly string[]): Promise<void>;
}

const runtime = entryRuntime();
if (import.meta.corralBundle === true && runtime.nodeEntry) {
  // Node's own entry, dist/corral.cjs, takes the same three ways faster (no
  // ESM loader for the hot path, V8's code cache): `node dist/corral.mjs`
  // is the same program as the bin. It reads the same argv.
  const { createRequire } = await import("node:module");
  createRequire(import.meta.url)("./corral.cjs");
} else {
  const args = runtime.args();
  const route = entryRoute(args);
  if (route.kind === "version") {
    await runtime.writeStdout(`${CORRAL_VERSION}\n`);
  } else if (import.meta.corralBundle === true) {
    // Computed paths: esbuild leaves them alone, and each file is its own build.
    // Deno's hot bundles are ES modules of their own (cli/hot/build.mjs says why).
    const hot = route.kind === "hot" ? (runtime.esmHotBundles ? `./hot/deno/${route.bundle}.mjs` : `./hot/${route.bundle}.cjs`) : undefined;
    const file = hot ?? "./corral-app.mjs";
    const load = async (file: string) => (await import(new URL(file, import.meta.url).href)) as Partial<RunsApp>;
    // Bun's copy with bytecode (cli/hot/build.mjs); a Bun that cannot read its format gets no runApp from it.
    const bunCopy = route.kind === "hot" && runtime.bytecodeHotBundles && BUN_BYTECODE_BUNDLES.includes(route.bundle) ? await load(`./hot/${route.bundle}.bun.cjs`) : {};
    await (bunCopy.runApp ?? (await load(file)).runApp)!(args);
  } else {
    await (await import("./run-app.ts")).runApp(args);
  }
}
