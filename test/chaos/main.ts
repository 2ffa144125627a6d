// `npm run chaos [-- --minutes N | --seconds N] [--seed S]`: the chaos run
// (run-chaos.ts) from the command line. Exit 1 when an invariant was broken.
import process from "node:process";
import { runChaos } from "./run-chaos.ts";

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const minutes = option("--minutes");
const seconds = option("--seconds");
const seedText = option("--seed");
const duration = seconds !== undefined ? Number(seconds) : minutes !== undefined ? Number(minutes) * 60 : 60;
const seed = seedText !== undefined ? Number(seedText) : Date.now() % 2 ** 32;
if (!Number.isFinite(duration) || duration <= 0 || !Number.isInteger(seed) || seed < 0) {
  process.stderr.write("chaos: usage: npm run chaos -- [--minutes N | --seconds N] [--seed S] (S a whole number >= 0)\n");
  process.exit(2);
}
const report = await runChaos({ seconds: duration, seed, log: (line) => process.stdout.write(`${line}\n`) });
process.exitCode = report.violations.length === 0 ? 0 : 1;
