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
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Kept in step with BUN_BYTECODE_BUNDLES in cli/hot/bundles.ts (test/cli/hot-bundles.test.ts checks). */
const BUN_BYTECODE_BUNDLES = ["run", "collect"];
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
  // import.meta.url made on first use: node:url costs Bun about 3 ms of CPU
  // (`bun` of a file requiring it, N=30) and Deno more, and of the hot commands
  // only `pty view` and the guardian's location ask for it.
  define: { "import.meta.url": "__corralMeta.url", "import.meta.dirname": "__dirname", "import.meta.corralBundle": "true" },
  banner: { js: "var __corralMeta={get url(){return require('node:url').pathToFileURL(__filename).href}};" },
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

// esbuild's __toESM gives each `import x from "node:..."` of a CommonJS
// bundle a fresh namespace object, a getter for every export of the module
// defined one by one: about 50 times a bundle (24 of them node:process),
// 2-3 ms of every start on Node (__copyProps). Worse on Bun, whose built-in
// modules load parts of themselves on first touch of an export: reading
// every property descriptor of node:fs loads its streams (node:stream and
// all), 20 ms of a `corral jobs` that never opens a stream. So the
// namespace of a CommonJS module (every node: module) is a proxy made once
// per module that reads the module's exports only when code does, with
// `default` the module itself, as esbuild's copy has it; an ES module's
// (the lazy parts) is esbuild's own. Nothing compares namespaces or writes
// to them. The helper's text is esbuild's; when a new esbuild writes it
// otherwise, the build fails here, to be looked at.
const TO_ESM = 'var __toESM=(mod,isNodeMode,target)=>(target=mod!=null?__create(__getProtoOf(mod)):{},__copyProps(isNodeMode||!mod||!mod.__esModule?__defProp(target,"default",{value:mod,enumerable:!0}):target,mod))';
const TO_ESM_ONCE = "var __namespaces=new WeakMap,__toESMFresh=" + TO_ESM.slice("var __toESM=".length) +
  ",__toESM=(mod,isNodeMode)=>{if(mod==null||typeof mod!=\"object\"&&typeof mod!=\"function\"||mod.__esModule&&!isNodeMode)return __toESMFresh(mod,isNodeMode);" +
  "let ns=__namespaces.get(mod);return ns===void 0&&__namespaces.set(mod,ns=new Proxy({},{get:(_,key)=>key===\"default\"?mod:mod[key],has:(_,key)=>key===\"default\"||key in mod})),ns}";

/** Rewrites `file`'s __toESM to make each namespace once, lazily (see above). */
function namespacesOnce(file) {
  const text = readFileSync(file, "utf8");
  if (!text.includes("__toESM")) return;
  if (!text.includes(TO_ESM)) throw new Error(`${file}: esbuild's __toESM is not the text cli/hot/build.mjs knows (TO_ESM)`);
  writeFileSync(file, text.replace(TO_ESM, TO_ESM_ONCE));
}

// A hot bundle requires every module it imports when it loads, used or
// not. Under Bun a few built-in modules cost at their require: node:net
// about 11 ms (it builds Bun's Node stream classes: `bun` of a file that
// only requires it, N=21; 20 ms of a `corral run` in `--cpu-prof-md`),
// node:child_process about 5, while `run` under Bun needs neither
// (lib/runtime/bun/guardian-spawn.ts). So in the hot bundles these are required on the
// first touch of an export: the module object is a proxy that requires
// the real one then (Node's cost for them is small either way). Calls keep
// working as before: esbuild calls a named import without a `this`, and
// these modules' functions do not use one. __toESM asks a Node module for
// nothing (its isNodeMode is tested first), so it does not load it early.
const DEFERRED_BUILTINS = ["net", "child_process", "stream", "http", "crypto", "url", "module", "tty", "readline", "zlib", "dns", "vm", "worker_threads"];
/** Declarators added after TO_ESM_ONCE's, in the same `var` list. */
const LAZY_BUILTIN = ",__lazyBuiltins=new Map,__lazyBuiltin=id=>{let lazy=__lazyBuiltins.get(id);if(lazy===void 0){let mod;const load=()=>mod??=require(id);" +
  "lazy=new Proxy({},{get:(_,key)=>load()[key],set:(_,key,value)=>(load()[key]=value,!0),has:(_,key)=>key in load()});__lazyBuiltins.set(id,lazy)}return lazy}";
const DEFERRED_REQUIRE = new RegExp(`\\brequire\\("node:(${DEFERRED_BUILTINS.join("|")})"\\)`, "g");

/** Rewrites `file`'s requires of DEFERRED_BUILTINS to load on first use (see above). */
function builtinsOnFirstUse(file) {
  const text = readFileSync(file, "utf8");
  const nodeModeFirst = TO_ESM_ONCE.replace("mod.__esModule&&!isNodeMode", "!isNodeMode&&mod.__esModule");
  if (!text.includes(TO_ESM_ONCE)) throw new Error(`${file}: no __toESM of namespacesOnce's to put Node modules first in`);
  const deferred = text.replace(TO_ESM_ONCE, nodeModeFirst + LAZY_BUILTIN).replace(DEFERRED_REQUIRE, '__lazyBuiltin("node:$1")');
  writeFileSync(file, deferred);
}

const hot = await build({
  ...common,
  metafile: true,
  entryPoints: Object.fromEntries(["run", "collect", "jobs", "pty"].map((name) => [name, path.join(root, "cli", "hot", `${name}.ts`)])),
  outdir,
  plugins: [lazyParts],
});
// Metafile paths are relative to the working directory.
for (const file of Object.keys(hot.metafile.outputs)) {
  namespacesOnce(path.resolve(file));
  builtinsOnFirstUse(path.resolve(file));
}
await build({
  ...common,
  entryPoints: Object.fromEntries(Object.entries(LAZY).map(([file, name]) => [name, path.join(root, file)])),
  outdir: path.join(outdir, "lazy"),
});
// Bun's copies of the bundles of `run` and `collect`, dist/hot/<name>.bun.cjs,
// with JavaScriptCore bytecode beside them (<name>.bun.cjs.jsc) made by
// `bun build --bytecode`: Bun has no code cache a program can fill at run
// time, and parsing and compiling the bundle was about a third of what
// `run -- true` cost Bun over its bare start (55 -> 29 ms wall, bare 9.5,
// N=21). The bytecode is Bun's own, for the Bun that built it (the one npm
// installs as a dev dependency); another Bun finds it does not fit and parses
// the source, which is this bundle. Bun's bundler writes the build machine's
// path for __dirname and __filename, so they are read from the module
// wrapper's own arguments instead. Without a bun at build time the file only
// requires the plain bundle.
const bun = [path.join(root, "node_modules", ".bin", "bun"), "bun"].find((candidate) => spawnSync(candidate, ["--version"]).status === 0);
for (const name of BUN_BYTECODE_BUNDLES) {
  const target = path.join(outdir, `${name}.bun.cjs`);
  rmSync(`${target}.jsc`, { force: true });
  if (bun === undefined) {
    writeFileSync(target, `module.exports=require("./${name}.cjs");\n`);
    continue;
  }
  const scratch = mkdtempSync(path.join(os.tmpdir(), "corral-bun-build-"));
  try {
    const source = readFileSync(path.join(outdir, `${name}.cjs`), "utf8")
      .replace(/\b__dirname\b/g, "__corralDirname()")
      .replace(/\b__filename\b/g, "__corralFile");
    const input = path.join(scratch, `${name}.bun.cjs`);
    writeFileSync(input, `var __corralFile=arguments[3],__corralDirname=()=>require("node:path").dirname(__corralFile);${source}`);
    const built = spawnSync(bun, ["build", "--bytecode", "--minify-whitespace", "--target=bun", "--format=cjs", input, "--outdir", path.join(scratch, "out"), "--external", "./lazy/*", "--external", "@lydell/node-pty"], { encoding: "utf8" });
    const out = path.join(scratch, "out", `${name}.bun.js`);
    if (built.status !== 0 || !existsSync(`${out}.jsc`)) throw new Error(`bun build --bytecode of ${name}: ${built.stderr || built.stdout}`);
    renameSync(out, target);
    renameSync(`${out}.jsc`, `${target}.jsc`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
// Deno's hot bundles, dist/hot/deno/<name>.mjs (and their lazy parts):
// ES modules, since Deno loads a CommonJS file through its Node module
// loader, about 25 ms before the first line runs (`deno run` of an import
// of an empty .cjs against `deno eval 0`, N=15), and Deno caches the
// compiled code of an ES module. Every `node:` module is replaced by a
// stand-in (lib/runtime/deno/builtins/deferred.ts says why): an ES module
// imports eagerly, node:fs alone would cost the 25 ms again, and even the
// cheapest (node:path, node:os, node:events, node:buffer) cost about 5 ms
// for the first of them and 7.6 for all four (`deno run` of a file that
// imports them against an empty one, N=15), which `run` and `collect` no
// longer pay: the stand-ins for path and os answer what they ask.
const denoDir = path.join(outdir, "deno");
const builtinsDir = path.join(root, "lib", "runtime", "deno", "builtins");
/** Stand-ins that answer some calls themselves: the module, and what it exports as its own answers. */
const OWN_ANSWERS = {
  fs: ["fs.ts", "ownFs"],
  process: ["process.ts", "ownProcess"],
  url: ["url.ts", "ownUrl"],
  path: ["path.ts", "ownPath"],
  os: ["os.ts", "ownOs"],
};
const denoBuiltins = {
  name: "corral-deno-builtins",
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (args) => {
      const name = args.path.replace(/^node:/, "");
      return builtinModules.includes(name) ? { path: name, namespace: "deno-builtin" } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: "deno-builtin" }, async (args) => {
      const name = args.path;
      const exported = Object.keys(await import(`node:${name}`)).filter((key) => key !== "default" && /^[A-Za-z_$][\w$]*$/.test(key));
      const own = OWN_ANSWERS[name];
      const lines = [
        `import { deferredBuiltin, deferredExport, deferredModule } from ${JSON.stringify(path.join(builtinsDir, "deferred.ts"))};`,
        own ? `import { ${own[1]} as own } from ${JSON.stringify(path.join(builtinsDir, own[0]))};` : "const own = {};",
        `const load = deferredBuiltin(${JSON.stringify(`node:${name}`)});`,
        ...exported.map((key) => `export const ${key} = ${JSON.stringify(key)} in own ? own.${key} : deferredExport(load, ${JSON.stringify(key)});`),
        "export default deferredModule(load, own);",
      ];
      return { contents: lines.join("\n"), loader: "js", resolveDir: builtinsDir };
    });
  },
};
/** Deno's lazy parts are ES modules too, beside its bundles. */
const denoLazyParts = {
  name: "corral-deno-lazy-parts",
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      const name = lazyByPath.get(path.resolve(args.resolveDir, args.path));
      return name === undefined ? undefined : { path: `./lazy/${name}.mjs`, external: true };
    });
  },
};
const denoCommon = {
  ...common,
  format: "esm",
  outExtension: { ".js": ".mjs" },
  supported: {},
  // import.meta.url is the module's own in an ES module.
  define: { "import.meta.corralBundle": "true" },
  banner: {},
};
await build({
  ...denoCommon,
  entryPoints: Object.fromEntries(["run", "collect", "jobs", "pty"].map((name) => [name, path.join(root, "cli", "hot", `${name}.ts`)])),
  outdir: denoDir,
  plugins: [denoLazyParts, denoBuiltins],
});
await build({
  ...denoCommon,
  entryPoints: Object.fromEntries(Object.entries(LAZY).map(([file, name]) => [name, path.join(root, file)])),
  outdir: path.join(denoDir, "lazy"),
  plugins: [denoBuiltins],
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
namespacesOnce(path.join(root, "dist", "corral.cjs"));
// The entry Deno and Bun run, dist/corral.mjs (cli/main.ts says why it is
// small): its own ES module file, without the split build's banner, whose
// `import ... from 'node:module'` alone costs Deno about 27 ms. It reaches
// the hot bundles and the command table (dist/corral-app.mjs) by computed
// paths, so nothing of them is copied into it.
await build({
  ...common,
  format: "esm",
  outExtension: {},
  supported: {},
  define: { "import.meta.corralBundle": "true" },
  banner: {},
  entryPoints: [path.join(root, "cli", "main.ts")],
  outfile: path.join(root, "dist", "corral.mjs"),
});
