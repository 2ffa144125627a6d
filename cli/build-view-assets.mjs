// Copies the two browser files `corral pty view` serves (xterm.js's
// lib/xterm.js and css/xterm.css) into dist/view/ at build time (npm run
// build:ts), as the other libraries are bundled into dist/: an install then
// carries these 500 KB (and xterm.js's licence) instead of depending on @xterm/xterm (6.2 MB with its
// sources, maps and typings), which is a devDependency.
// Plain JavaScript: it runs before anything is built.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "package.json"));
const js = require.resolve("@xterm/xterm");
const out = path.join(root, "dist", "view");
mkdirSync(out, { recursive: true });
copyFileSync(js, path.join(out, "xterm.js"));
const pkg = path.join(path.dirname(js), "..");
copyFileSync(path.join(pkg, "css", "xterm.css"), path.join(out, "xterm.css"));
copyFileSync(path.join(pkg, "LICENSE"), path.join(out, "LICENSE.xterm"));
