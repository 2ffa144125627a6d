// A test reporter for run-files.ts: at the end of a stage, the slowest test
// files by the sum of their top-level tests' durations, as the runner itself
// measured them. On a shared machine wall times swing with the load; these
// sums, compared as shares of the total, say where the suite's time goes.
// (Node 20 reports no per-file event: a file's top-level tests are its own.)
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sourceOfCompiled } from "./suite-bundle.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** How many files the summary names. */
const SHOWN = 20;

/** One event of Node's test runner, as far as this reporter reads it. */
interface RunnerEvent {
  readonly type: string;
  readonly data: { file?: string; nesting: number; details?: { duration_ms?: number } };
}

export default async function* fileDurations(source: AsyncIterable<RunnerEvent>): AsyncGenerator<string> {
  const perFile = new Map<string, number>();
  for await (const event of source) {
    if ((event.type !== "test:pass" && event.type !== "test:fail") || event.data.nesting !== 0) continue;
    const file = sourceOfCompiled(path.relative(repoRoot, event.data.file ?? "(unknown file)"));
    perFile.set(file, (perFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  const total = [...perFile.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return;
  yield `\n# slowest test files (sum of their tests' durations; all ${perFile.size} files: ${(total / 1000).toFixed(1)} s)\n`;
  for (const [file, ms] of [...perFile].sort((a, b) => b[1] - a[1]).slice(0, SHOWN)) {
    yield `#   ${(ms / 1000).toFixed(1).padStart(7)} s ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${file}\n`;
  }
}
