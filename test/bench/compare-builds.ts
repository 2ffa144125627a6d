// Two builds side by side in one run: the same benchmarks from this checkout
// and from another (say the commit before a change, in a throwaway
// `git worktree add /tmp/base COMMIT && npm ci` there), interleaved round by
// round (base, this; then this, base) so a busy moment on the machine hurts
// both alike. Every number a benchmark prints is matched by its line (the
// text with its numbers taken out) and shown as base -> this with the ratio
// of the medians over the rounds: a regression stands out as a ratio well
// above 1 for a time or a size, beyond the spread the rounds show.
// Usage: node --import tsx test/bench/compare-builds.ts --base DIR [--rounds N] NAME...
// (NAME as for `npm run bench -- NAME`: benchmarks whose file name has NAME;
// CORRAL_BENCH_RUNS and the like reach each benchmark unchanged.)
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
let base: string | undefined;
let rounds = 2;
const names: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--base") base = args[++i];
  else if (args[i] === "--rounds") rounds = Number(args[++i]);
  else names.push(args[i]!);
}
if (base === undefined || !existsSync(path.join(base, "test", "bench")) || !Number.isInteger(rounds) || rounds < 1 || names.length === 0) {
  process.stderr.write("usage: compare-builds.ts --base DIR [--rounds N] NAME... (DIR: another checkout, built with npm ci)\n");
  process.exit(2);
}
const checkouts = { base: path.resolve(base), this: here } as const;
type Side = keyof typeof checkouts;

/** Benchmarks whose file name has one of the names, present in both checkouts. */
const benches = readdirSync(path.join(here, "test", "bench"))
  .filter((file) => file.endsWith(".bench.ts") && names.some((n) => file.includes(n)))
  .filter((file) => existsSync(path.join(checkouts.base, "test", "bench", file)))
  .sort();

const NUMBER = /-?\d+(?:\.\d+)?/g;

/** Each printed line's numbers, keyed by the line with its numbers taken out (the nth such line of a key gets "#n"). */
function numbersByLine(output: string): Map<string, number[]> {
  const found = new Map<string, number[]>();
  for (const line of output.split("\n")) {
    const numbers = [...line.matchAll(NUMBER)].map((m) => Number(m[0]));
    if (numbers.length === 0) continue;
    let key = line.replace(NUMBER, "#").trim();
    for (let n = 2; found.has(key); n++) key = `${line.replace(NUMBER, "#").trim()} #${n}`;
    found.set(key, numbers);
  }
  return found;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function runOnce(side: Side, file: string): string {
  const root = checkouts[side];
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "test", "bench", file)], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const why = result.stderr.trim().split("\n").filter((line) => /error|Error/.test(line)).slice(0, 2).join(" / ");
    process.stdout.write(`  (${side}: ${file} exited ${result.status}: ${why || result.stderr.trim().split("\n").slice(-1)[0] || "no message"})\n`);
  }
  return result.stdout;
}

process.stdout.write(`base ${checkouts.base}\nthis ${checkouts.this}\n${rounds} rounds each, interleaved; figures: median base -> median this (this/base)\n`);
for (const file of benches) {
  process.stdout.write(`\n## ${file}\n`);
  const seen: Record<Side, Map<string, number[]>[]> = { base: [], this: [] };
  for (let round = 0; round < rounds; round++) {
    const order: Side[] = round % 2 === 0 ? ["base", "this"] : ["this", "base"];
    for (const side of order) seen[side].push(numbersByLine(runOnce(side, file)));
  }
  for (const [key, first] of seen.this[0] ?? new Map<string, number[]>()) {
    const columns = first.map((_, at) => {
      const of = (side: Side) => median(seen[side].map((r) => r.get(key)?.[at]).filter((v): v is number => v !== undefined));
      const [b, t] = [of("base"), of("this")];
      if (Number.isNaN(b) || Number.isNaN(t)) return null;
      if (b === t) return `${b}`;
      return `${b} -> ${t} (${b === 0 ? "n/a" : (t / b).toFixed(2)})`;
    });
    if (columns.every((c) => c === null || !c.includes("->"))) continue; // constants: the same on both sides
    process.stdout.write(`  ${key}\n      ${columns.filter((c) => c !== null).join(" | ")}\n`);
  }
}
