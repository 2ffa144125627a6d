// npm's prepare script (package.json "prepare"): bundles dist/ and builds
// the guardian (`npm run build`). It runs in a source checkout (`npm ci`)
// and when npm installs corral from git, where npm first installs the
// clone's devDependencies (esbuild) and packs the result. With
// `npm install -g git+...` that nested install inherits --global and leaves
// the clone without them ("esbuild: not found"), so they are installed here
// first, into the clone only.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];

function run(args, env = process.env) {
  const [file, ...pre] = npm;
  const r = spawnSync(file, [...pre, ...args], { cwd: root, env, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync(new URL("../node_modules/.bin/esbuild", import.meta.url))) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_(global|prefix|location)$/i.test(k)));
  run(["install", "--no-save", "--global=false", "--include=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], env);
}
run(["run", "build"]);
