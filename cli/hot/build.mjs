// Builds dist/hot/ (npm run build:hot, after the split build of dist/): one
// CommonJS file per hot command (hot-app.ts says why), each with no code
// splitting.
// Two lazily loaded parts stay out of those files, since parsing what does
// not run costs too (about 10 ms of CPU for the 160 KB YAML parser on every
// `run`): the config file reader (lib/config/from-yaml.ts, with the yaml
// package; loaded only when a config file exists) and the regex engine
// (lib/pty/wait-pattern.ts, with re2js; loaded only for `--regex`). Each is
// built into dist/hot/lazy/<name>.cjs, and a dynamic import of it from a hot
// command loads that file. Plain JavaScript: it runs before anything is built.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outdir = path.join(root, "dist", "hot");

/** Source file (from the root) to the name of its own file in dist/hot/lazy/. */
const LAZY = { "lib/config/from-yaml.ts": "from-yaml", "lib/pty/wait-pattern.ts": "wait-pattern" };
const lazyByPath = new Map(Object.entries(LAZY).map(([file, name]) => [path.join(root, file), name]));

const common = {
  bundle: true,
  platform: "node",
  // CommonJS: Node 20 can start these from V8's code cache (load-bundle.ts says how and why).
  format: "cjs",
  target: "node20",
  outExtension: { ".js": ".cjs" },
  external: ["@lydell/node-pty"],
  // import() becomes require(): a bundle run from the code cache has no module loader to import with.
  supported: { "dynamic-import": false },
  define: { "import.meta.url": "__corralUrl", "import.meta.corralBundle": "true" },
  banner: { js: "var __corralUrl=require('node:url').pathToFileURL(__filename).href;" },
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
};

/** A dynamic import of a LAZY part becomes an import of its own file. */
const lazyParts = {
  name: "corral-lazy-parts",
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      const name = lazyByPath.get(path.resolve(args.resolveDir, args.path));
      return name === undefined ? undefined : { path: `./lazy/${name}.cjs`, external: true };
    });
  },
};

await build({
  ...common,
  entryPoints: Object.fromEntries(["run", "collect", "jobs", "pty"].map((name) => [name, path.join(root, "cli", "hot", `${name}.ts`)])),
  outdir,
  plugins: [lazyParts],
});
await build({
  ...common,
  entryPoints: Object.fromEntries(Object.entries(LAZY).map(([file, name]) => [name, path.join(root, file)])),
  outdir: path.join(outdir, "lazy"),
});
// Node's entry, dist/corral.cjs (cli/node-entry.ts says why it is CommonJS):
// its own small file, beside the hot bundles it loads.
await build({
  ...common,
  supported: {},
  define: {},
  banner: {},
  entryPoints: [path.join(root, "cli", "node-entry.ts")],
  outfile: path.join(root, "dist", "corral.cjs"),
});
