// The mutants stay triable between runs of `npm run mutants` (too long for
// `npm test`): every planted edit still finds its text exactly once, its
// test files exist, and docs/mutants.md names every mutant, so code that
// moved fails here, in seconds, not in the next long run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { mutants } from "./mutant-list.ts";

test("every mutant applies once and its test files exist", () => {
  const problems: string[] = [];
  for (const m of mutants) {
    for (const mutation of m.mutations) {
      const file = path.join(repoRoot, mutation.file);
      const count = existsSync(file) ? readFileSync(file, "utf8").split(mutation.from).length - 1 : -1;
      if (count !== 1) problems.push(`${m.name}: ${mutation.file} ${count < 0 ? "does not exist" : `holds the text ${count} times`}`);
    }
    for (const file of m.tests.files) if (!existsSync(path.join(repoRoot, file))) problems.push(`${m.name}: no test file ${file}`);
  }
  assert.deepEqual(problems, []);
});

test("docs/mutants.md names every mutant, and no mutant twice in the list", () => {
  const doc = readFileSync(path.join(repoRoot, "docs", "mutants.md"), "utf8");
  const missing = mutants.map((m) => m.name).filter((name) => !doc.includes(`\`${name}\``));
  assert.deepEqual(missing, [], "mutants the page does not name");
  const names = mutants.map((m) => m.name);
  assert.equal(new Set(names).size, names.length);
});
