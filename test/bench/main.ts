// `npm run bench`: runs every test/bench/*.bench.ts in turn, each in its own
// process so one benchmark's heap and children do not colour the next.
// `npm run bench -- NAME` runs only the benchmarks whose file name has NAME.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => filter.length === 0 || filter.some((f) => name.includes(f)))
  .sort();
let failures = 0;
for (const name of benches) {
  process.stdout.write(`\n## ${name}\n`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(here, name)], { stdio: "inherit" });
  if (result.status !== 0) {
    failures++;
    process.stdout.write(`## ${name} failed (status ${result.status})\n`);
  }
}
process.exitCode = failures === 0 ? 0 : 1;
