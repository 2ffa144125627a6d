// What a command line the parser refused is told, in corral's words where
// stricli's are a parser's ("No flag registered for --x", "Too many
// arguments, expected 0 but encountered ..."). For an unknown flag, stricli
// proposes flags by a weighted distance with a wide threshold, so `corral run
// --json` was asked "did you mean --host?", and it names them by their
// camelCase keys (`--keepEnv`), which no help text shows: here a proposal is
// kept only when it is a typo away (a letter added, dropped, changed or two
// swapped; two such for longer names) and is named as --help names it. No
// line repeats a flag's value: it may be a secret.
import { kebab } from "./command-parameters.ts";
import { AliasNotFoundError, FlagNotFoundError, UnexpectedFlagError, UnexpectedPositionalError, UnsatisfiedFlagError } from "@stricli/core";

/**
 * Where the JSON is for a command with no --json: the one flag most asked
 * of a command that has none, so its line says where to look.
 */
const JSON_ELSEWHERE: Readonly<Record<string, string>> = {
  run: "--facts FILE writes its exit facts as JSON",
  fg: "corral jobs --json shows the job",
  bg: "corral jobs --json shows the job",
};

/**
 * corral's line (without `corral: `) for a refused command line, or
 * undefined to keep the parser's; `args`, the command line, names the
 * command for a hint.
 */
export function parseErrorLine(error: unknown, args: readonly string[] = []): string | undefined {
  if (error instanceof FlagNotFoundError && error.aliasName === undefined) {
    const elsewhere = error.input === "json" ? JSON_ELSEWHERE[args[0] ?? ""] : undefined;
    if (elsewhere !== undefined) return `unknown flag --json: corral ${args[0]} has none; ${elsewhere} (see --help)`;
    return unknownFlagLine(error.input, error.corrections);
  }
  if (error instanceof AliasNotFoundError) return `unknown flag -${error.input} (see --help)`;
  if (error instanceof UnsatisfiedFlagError) {
    const next = error.nextFlagName === undefined ? "" : `, and --${kebab(error.nextFlagName)} came where it was expected`;
    return `--${kebab(error.externalFlagName)} needs a value${next} (see --help)`;
  }
  if (error instanceof UnexpectedFlagError) return `--${kebab(error.externalFlagName)} was given twice; it takes one value (see --help)`;
  if (error instanceof UnexpectedPositionalError) {
    const room = error.expectedCount === 0 ? "this command takes no arguments" : `this command takes at most ${error.expectedCount}`;
    return `unexpected argument ${JSON.stringify(error.input)}: ${room} (see --help)`;
  }
  return undefined;
}

/**
 * The line for a word that names no command: `input` among the command line
 * `args`, stricli's proposals; the help it points to is the group's it was
 * looked for in (`corral pty nosuch`: corral pty --help).
 */
export function unknownCommandLine(input: string, corrections: readonly string[], args: readonly string[]): string {
  const at = args.indexOf(input);
  const group = ["corral", ...(at > 0 ? args.slice(0, at) : [])].join(" ");
  // stricli hands them over quoted in backticks.
  const near = typosOf(input, corrections.map((name) => name.replace(/^`(.*)`$/, "$1")));
  const proposal = near.length === 0 ? "" : `, did you mean ${near.map((name) => `\`${name}\``).join(" or ")}?`;
  return `unknown command \`${input}\`${proposal} (see ${group} --help)`;
}

/** The one line for an unknown flag `--input`, with stricli's proposals. */
function unknownFlagLine(input: string, corrections: readonly string[]): string {
  const typed = kebab(input);
  const near = typosOf(typed, corrections.map(kebab));
  const proposal = near.length === 0 ? "" : `, did you mean ${near.map((name) => `--${name}`).join(" or ")}?`;
  return `unknown flag --${typed}${proposal} (see --help)`;
}

/** The proposals a typo away from what was typed (one edit for short words, two for longer). */
function typosOf(typed: string, proposals: readonly string[]): string[] {
  return [...new Set(proposals)].filter((name) => editDistance(typed, name) <= (typed.length <= 4 ? 1 : 2));
}

/** Edits (insert, delete, change, swap two neighbours) between two short words. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
