// npm's prepare script (package.json "prepare"): bundles dist/ and builds
// the guardian (`npm run build`). It runs in a source checkout (`npm ci`)
// and when npm installs corral as a git dependency of a project, where npm
// first installs the clone's devDependencies (esbuild). `npm install -g
// git+URL` cannot work: npm's nested install for the clone inherits
// --global, so the clone gets no devDependencies, and the result is a link
// to a deleted temporary clone (npm/cli#4148, #6984, #8440). Rather than
// "esbuild: not found", say so and give the way that works.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";

if (!existsSync(new URL("../node_modules/.bin/esbuild", import.meta.url))) {
  const global = process.env.npm_config_global === "true";
  process.stderr.write(
    global
      ? "corral: npm install -g git+URL cannot build corral (npm gives a global git install no devDependencies: npm/cli#8440); instead: npm pack git+URL && npm install -g ./corral-*.tgz\n"
      : "corral: cannot bundle dist/: esbuild is not installed (run npm install in this checkout first)\n",
  );
  process.exit(1);
}
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
const r = spawnSync(npm[0], [...npm.slice(1), "run", "build"], { stdio: "inherit" });
process.exit(r.status ?? 1);
