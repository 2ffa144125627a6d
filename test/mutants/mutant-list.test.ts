// The mutants stay triable, and stay linked to the promises they stand for,
// between runs of `npm run mutants` (too long for `npm test`): every planted
// edit still finds its text exactly once and its test files exist; every
// promise of docs/guarantees.md has a mutant; and the docs' mutant tables
// are the ones the list writes. Code or docs that moved fail here, in
// seconds, not in the next long run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { guarantees, mutants } from "./mutant-list.ts";
import { guaranteesSection, mutantsOf, mutantsSection, promisesOf, slug } from "./mutant-docs.ts";

const doc = (name: string) => readFileSync(path.join(repoRoot, "docs", name), "utf8");

test("every mutant applies once and its test files exist", () => {
  const problems: string[] = [];
  for (const m of mutants) {
    for (const mutation of m.mutations) {
      const file = path.join(repoRoot, mutation.file);
      const count = existsSync(file) ? readFileSync(file, "utf8").split(mutation.from).length - 1 : -1;
      if (count !== 1) problems.push(`${m.name}: ${mutation.file} ${count < 0 ? "does not exist" : `holds the text ${count} times`}`);
    }
    for (const file of m.tests.files) if (!existsSync(path.join(repoRoot, file))) problems.push(`${m.name}: no test file ${file}`);
    const script = m.tests.env?.["CORRALTEST_SCRIPT"];
    if (script !== undefined && !existsSync(path.join(repoRoot, "test", "scripts", script))) problems.push(`${m.name}: no script test/scripts/${script}`);
  }
  assert.deepEqual(problems, []);
});

test("no mutant twice; each breaks a listed guarantee, and each guarantee has a mutant", () => {
  const names = mutants.map((m) => m.name);
  assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], "mutants listed twice");
  const labels = new Set(guarantees.map((g) => g.label));
  const unknown = mutants.flatMap((m) => [m.guarantee, ...(m.also ?? [])].filter((l) => !labels.has(l)).map((l) => `${m.name}: ${l}`));
  assert.deepEqual(unknown, [], "mutants naming a guarantee that is not in the list");
  assert.deepEqual(guarantees.filter((g) => mutantsOf(g).length === 0).map((g) => g.label), [], "guarantees without a mutant");
});

test("every promise of docs/guarantees.md is a guarantee of the list, at its section", () => {
  const promises = promisesOf(doc("guarantees.md"));
  assert.ok(promises.length >= 20, `only ${promises.length} promises found: has the page's shape changed?`);
  const missing = promises
    .filter((p) => !guarantees.some((g) =>
      (g.label === p.lead || g.label.startsWith(`${p.lead} (`)) && g.promised === `guarantees.md#${slug(p.section)}`))
    .map((p) => `${p.section}: ${p.lead}`);
  assert.deepEqual(missing, [], "promises of docs/guarantees.md with no mutant: add one to test/mutants/mutant-list.ts (and run npm run mutants -- NAME)");
});

test("every guarantee's page and anchor exist", () => {
  const missing = guarantees.filter((g) => {
    const [page, anchor] = g.promised.split("#");
    if (!existsSync(path.join(repoRoot, "docs", page!))) return true;
    const headings = doc(page!).split("\n").filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, "")));
    return !headings.includes(anchor!);
  }).map((g) => `${g.label}: ${g.promised}`);
  assert.deepEqual(missing, []);
});

test("docs/mutants.md and docs/guarantees.md hold the tables the list writes (npm run mutants -- --markdown)", () => {
  assert.ok(doc("mutants.md").includes(mutantsSection()), "docs/mutants.md: its section per guarantee differs from the list");
  assert.ok(doc("guarantees.md").includes(guaranteesSection()), "docs/guarantees.md: its 'Checked by mutants' section differs from the list");
});
