// `npm run mutants`: tests of the tests. Each mutant of mutant-list.ts is
// planted in a scratch copy of this checkout (scratch-copy.ts), what it
// touches is rebuilt, and only its test files run; the mutant is caught when
// they fail. First the same files run on an unmutated copy: a failure there
// would make every mutant look caught, so it fails the run instead.
// A mutant missed, no longer applicable, or whose tests were all skipped
// fails the run (exit 1). Usage: main.ts [--no-baseline] [--check] [--markdown] [NAME...]
// NAME: only the mutants named (a guarantee's label picks all of its own).
// --check only makes sure every mutant still applies and its test files
// exist (seconds; lint runs it, so moved code is found before a long run).
// --markdown prints the docs' mutant sections (mutant-docs.ts) and exits.
import { spawn } from "node:child_process";
import { processesMarked, SUITE_MARKER } from "../support/processes.ts";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { guaranteesSection, mutantsSection } from "./mutant-docs.ts";
import { type Mutant, type MutantTests, mutants } from "./mutant-list.ts";
import { applyMutation, type Rebuild, rebuild, rebuildFor, removeCopy, scratchCopy } from "./scratch-copy.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** A mutant's test files get this long (unless it says) before the run counts as a hang (caught, but said). */
const DEADLINE_S = 300;
/** The unmutated files must pass within this. */
const BASELINE_DEADLINE_S = 600;

interface TestRun {
  readonly passed: boolean;
  readonly pass: number;
  readonly fail: number;
  readonly skipped: number;
  readonly hung: boolean;
  readonly failures: string[];
  readonly output: string;
}

let runs = 0;

/** SIGKILLs every process a test run left behind (found by its marker in their environment). */
function endLeftovers(marker: string): void {
  for (const p of processesMarked(marker)) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Runs `tests` in `dir` under Node's test runner. */
function runTests(dir: string, tests: MutantTests, deadlineS: number): Promise<TestRun> {
  const args = ["--import", "tsx", "--test", "--test-reporter=tap"];
  if (tests.namePattern !== undefined) args.push(`--test-name-pattern=${tests.namePattern}`);
  args.push(...tests.files);
  // Marked, so what the run leaves behind can be found and ended: a planted bug (escapees not
  // killed, say) leaves processes running by design, and they must not outlive the runner.
  const marker = `mutants-${process.pid}-${++runs}`;
  const env: NodeJS.ProcessEnv = { ...process.env, ...tests.env, [SUITE_MARKER]: marker };
  delete env.CORRAL_GUARDIAN_BIN;
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (b: Buffer) => (output += b.toString()));
    child.stderr.on("data", (b: Buffer) => (output += b.toString()));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, deadlineS * 1000);
    child.on("close", (code) => {
      clearTimeout(timer);
      endLeftovers(marker);
      // Top-level results only, and not a test file's own line (a script shard whose other scripts
      // were not asked for still reports "ok" for the file): a skipped script must count as skipped.
      const results = [...output.matchAll(/^(not ok|ok) \d+ - (.*)$/gm)].filter((m) => !m[2]!.startsWith("/"));
      const skipped = results.filter((m) => m[1] === "ok" && / # SKIP/.test(m[2]!));
      const failures = results.filter((m) => m[1] === "not ok").map((m) => m[2]!);
      const pass = results.length - skipped.length - failures.length;
      resolve({ passed: code === 0 && !hung, pass, fail: failures.length, skipped: skipped.length, hung, failures, output });
    });
  });
}

/** What keeps each mutant from being tried: text no longer found once, a test file gone. */
function checkMutants(list: readonly Mutant[]): string[] {
  const problems: string[] = [];
  for (const m of list) {
    for (const mutation of m.mutations) {
      const file = path.join(root, mutation.file);
      const count = existsSync(file) ? readFileSync(file, "utf8").split(mutation.from).length - 1 : -1;
      if (count !== 1) problems.push(`mutant ${m.name}: ${mutation.file} ${count < 0 ? "does not exist" : `holds its text ${count} times, not once`}`);
    }
    for (const file of m.tests.files) if (!existsSync(path.join(root, file))) problems.push(`mutant ${m.name}: test file ${file} does not exist`);
  }
  return problems;
}

/** A fresh copy with `mutant` planted and rebuilt; the copy's path, or why not. */
function plant(mutant: Mutant | null): { dir: string; error: string | null } {
  const dir = scratchCopy(root);
  if (mutant === null) return { dir, error: null };
  const kinds = new Set<Rebuild>();
  for (const m of mutant.mutations) {
    const error = applyMutation(dir, m);
    if (error !== null) return { dir, error };
    kinds.add(rebuildFor(m.file));
  }
  return { dir, error: rebuild(dir, kinds) };
}

const args = process.argv.slice(2);
const baseline = !args.includes("--no-baseline");
if (args.includes("--markdown")) {
  process.stdout.write(`<!-- docs/mutants.md -->\n${mutantsSection()}\n<!-- docs/guarantees.md -->\n${guaranteesSection()}`);
  process.exit(0);
}
const names = args.filter((a) => !a.startsWith("--"));
const picks = (m: Mutant, n: string) => m.name === n || m.guarantee === n || (m.also ?? []).includes(n);
const unknown = names.filter((n) => !mutants.some((m) => picks(m, n)));
if (unknown.length > 0) {
  console.error(`corral: no mutant named ${unknown.join(", ")}; the mutants: ${mutants.map((m) => m.name).join(", ")}`);
  process.exit(2);
}
const chosen = mutants.filter((m) => names.length === 0 || names.some((n) => picks(m, n)));
if (args.includes("--check")) {
  const problems = checkMutants(chosen);
  for (const p of problems) console.error(`corral: ${p}`);
  if (problems.length === 0) console.log(`${chosen.length} mutants apply, their test files exist`);
  process.exit(problems.length === 0 ? 0 : 1);
}
const started = Date.now();
let bad = 0;
const say = (line: string) => process.stdout.write(`${line}\n`);

if (baseline) {
  // Each distinct set of tests once, unmutated: they must pass here.
  const seen = new Map<string, MutantTests>();
  for (const m of chosen) seen.set(JSON.stringify(m.tests), m.tests);
  const { dir } = plant(null);
  try {
    for (const tests of seen.values()) {
      const r = await runTests(dir, tests, BASELINE_DEADLINE_S);
      const what = `${tests.files.join(" ")}${tests.namePattern ? ` /${tests.namePattern}/` : ""}`;
      if (!r.passed) {
        bad++;
        say(`BASELINE FAILS  ${what}: the tests fail without any mutant, so they prove nothing\n${r.output.slice(-4000)}`);
      } else {
        say(`baseline ok     ${what} (${r.pass} passed, ${r.skipped} skipped)`);
      }
    }
  } finally {
    removeCopy(dir);
  }
}

for (const mutant of chosen) {
  const t0 = Date.now();
  const { dir, error } = plant(mutant);
  try {
    if (error !== null) {
      bad++;
      say(`NOT APPLIED     ${mutant.name}: ${error}`);
      continue;
    }
    const r = await runTests(dir, mutant.tests, mutant.deadlineS ?? DEADLINE_S);
    const secs = `${Math.round((Date.now() - t0) / 1000)} s`;
    if (r.passed && r.pass === 0) {
      bad++;
      say(`NOT TESTED      ${mutant.name} (${mutant.guarantee}): every test was skipped here (${r.skipped} skipped)`);
    } else if (r.passed) {
      bad++;
      say(`MISSED          ${mutant.name} (${mutant.guarantee}): ${mutant.bug}; ${r.pass} tests passed with it (${secs})`);
    } else {
      const how = r.hung ? "the tests hung (killed after the deadline)" : `failed: ${r.failures.slice(0, 3).join("; ")}`;
      say(`caught          ${mutant.name} (${mutant.guarantee}): ${how} (${secs})`);
    }
  } finally {
    removeCopy(dir);
  }
}
const total = Math.round((Date.now() - started) / 1000);
say(`${chosen.length} mutants tried, ${bad === 0 ? "every one caught" : `${bad} problem(s)`} in ${total} s`);
process.exitCode = bad === 0 ? 0 : 1;
