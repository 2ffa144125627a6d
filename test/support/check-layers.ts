// `npm run lint` runs this after deno lint: the layering rules of DESIGN.md
// section 3, checked on the tree (rules in layering/rules.ts). One stderr line
// per violation; exit 1 when there is any, 0 when the tree keeps the layers.
// Usage: node --import tsx test/support/check-layers.ts [ROOT]   (default: the repository)
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkLayers } from "./layering/rules.ts";

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../.."));
const violations = checkLayers(root);
for (const v of violations) process.stderr.write(`layering (${v.rule}): ${v.message}\n`);
if (violations.length > 0) {
  process.stderr.write(`layering: ${violations.length} violation(s); the rules are in docs/development.md, "Layering", and docs/architecture.md, "The floors"\n`);
  process.exitCode = 1;
}
