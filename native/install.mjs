// npm's install script (package.json "install"). An installed tarball
// carries dist/, so this builds the guardian through dist/install.mjs
// (cli/install-hook.ts). A source checkout has no dist/ yet at this point:
// its prepare script (`npm run build`) bundles and runs make instead.
import { existsSync } from "node:fs";

const hook = new URL("../dist/install.mjs", import.meta.url);
if (existsSync(hook)) await import(hook.href);
