// The suite's test files compiled once, ahead of the run: each test process
// then starts on plain JavaScript instead of loading tsx, whose loader
// thread and per-module transform cost about 0.3 s of CPU a process (a
// third of what a small test file costs in all, and the suite starts 150
// of them on two cores). esbuild bundles every test file in one build
// (shared modules split into chunks) under node_modules/.cache, where the
// packages still resolve from node_modules; each module keeps its own
// import.meta.url, dirname and filename (its source file's), so paths a
// module computes from where it lives are the same as from source.
// Source maps go with the files, and the test processes run with
// --enable-source-maps: a failure's stack names the .ts line.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import process from "node:process";
import { isAlive } from "./processes.ts";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";

/** Test files compiled to `dir` (the mirror of the repo's tree, .ts -> .mjs), removed by `remove`. */
export interface SuiteBundle {
  readonly dir: string;
  /** The compiled file for a source file relative to the repo. */
  compiled(source: string): string;
  remove(): void;
}

/**
 * import.meta's location fields as the source file's, not the bundle's:
 * esbuild's define turns each into a name, which every module that uses
 * import.meta declares on its first line (so its lines keep their numbers),
 * and the bundler keeps each module's own binding apart.
 */
const SOURCE_LOCATION = { "import.meta.url": "__sourceUrl", "import.meta.dirname": "__sourceDirname", "import.meta.filename": "__sourceFilename" };
const sourceLocation: Plugin = {
  name: "source-location",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta")) return { contents: text, loader: "ts" };
      const declared = `const __sourceUrl = ${JSON.stringify(pathToFileURL(args.path).href)}, __sourceDirname = ${JSON.stringify(path.dirname(args.path))}, __sourceFilename = ${JSON.stringify(args.path)};`;
      // After a hashbang line, which must stay first.
      const at = text.startsWith("#!") ? text.indexOf("\n") + 1 : 0;
      return { contents: text.slice(0, at) + declared + text.slice(at), loader: "ts" };
    });
  },
};

/** Compiles `sources` (paths relative to `repoRoot`); rejects with esbuild's errors. */
export async function bundleSuite(repoRoot: string, sources: readonly string[]): Promise<SuiteBundle> {
  const { build } = await import("esbuild");
  const cache = path.join(repoRoot, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  removeLeftBehind(cache);
  const dir = mkdtempSync(path.join(cache, `corral-suite-${process.pid}-`));
  try {
    await build({
      entryPoints: sources.map((source) => path.join(repoRoot, source)),
      outdir: dir,
      outbase: repoRoot,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      sourcemap: "linked",
      plugins: [sourceLocation],
      define: SOURCE_LOCATION,
      logLevel: "silent",
      // A CommonJS require inside a bundled module (createRequire of the module's own URL keeps working).
      banner: { js: "import{createRequire as __suiteRequire}from'node:module';const require=__suiteRequire(import.meta.url);" },
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    compiled: (source) => path.join(dir, source.replace(/\.[cm]?ts$/, ".mjs")),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Compiled trees of runs that ended without removing theirs (killed): their process is gone. */
function removeLeftBehind(cache: string): void {
  for (const name of readdirSync(cache)) {
    const pid = /^corral-suite-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || isAlive(Number(pid))) continue;
    rmSync(path.join(cache, name), { recursive: true, force: true });
  }
}

/** The source file (relative to the repo) a compiled test file came from; other paths as they are. */
export function sourceOfCompiled(file: string): string {
  const found = /(?:^|\/)node_modules\/\.cache\/corral-suite-\d+-[^/]+\/(.+)\.mjs$/.exec(file);
  return found === null ? file : `${found[1]}.ts`;
}
