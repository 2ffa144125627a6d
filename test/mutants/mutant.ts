// What a mutant is (a planted bug: small edits, the guarantee it breaks,
// the tests that must then fail), and how a mutant names a user-shaped
// script test. The mutants themselves are in mutants-*.ts, one file per
// part of corral; mutant-list.ts gathers them with the guarantees.

/** One edit: `from` (found exactly once in `file`) becomes `to`. */
export interface Mutation {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

/** Test files to run (from the repository root), with an optional name pattern and environment. */
export interface MutantTests {
  readonly files: readonly string[];
  /** Passed as --test-name-pattern: only the tests that check this guarantee. */
  readonly namePattern?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * A promise the docs make: its label (for a promise of docs/guarantees.md,
 * the bold lead of its paragraph, or its heading) and the page and anchor
 * that make it. docs/guarantees.md links each to its mutants.
 */
export interface Guarantee {
  readonly label: string;
  /** Page#anchor under docs/. */
  readonly promised: string;
}

export interface Mutant {
  readonly name: string;
  /** The label of the guarantee (in `guarantees`) it breaks. */
  readonly guarantee: string;
  /** Other guarantees the same bug breaks. */
  readonly also?: readonly string[];
  /** What the planted bug does. */
  readonly bug: string;
  readonly mutations: readonly Mutation[];
  readonly tests: MutantTests;
  /** Seconds the tests may run with the mutant before the run counts as a hang (caught, but slow); default 300. */
  readonly deadlineS?: number;
}

export const SHARDS = ["test/scripts/scripts-1.test.ts", "test/scripts/scripts-2.test.ts", "test/scripts/scripts-3.test.ts", "test/scripts/scripts-4.test.ts"];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A user-shaped script test (test/scripts/NAME), run through its shard files:
 * only that script (CORRALTEST_SCRIPT), and only its own test (a shard also
 * runs a few scripts through the JavaScript CLI whatever it is told).
 */
export const script = (name: string): MutantTests => ({
  files: SHARDS,
  namePattern: `^script ${escaped(name)}$`,
  env: { CORRALTEST_SCRIPT: name },
});

