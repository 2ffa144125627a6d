// The patterns a wait looks for: literal text or a regular expression run by
// RE2 (re2js, pure JavaScript), whose matching time is linear in the text.
// A user's pattern runs inside the agent, which serves every session: with
// JavaScript's backtracking engine `(a+)+$` on 40 letters stalls all of them
// for minutes (issue 15). RE2 syntax is Perl's without backreferences and
// lookaround; ^ and $ match at line boundaries.
import { RE2JS } from "re2js";

/** A pattern that cannot be used; the message names it and what would be right. */
export class PatternError extends Error {
  override readonly name = "PatternError";
}

/** One condition of a wait that matches text. */
export type WaitPattern =
  | { readonly kind: "text"; readonly index: number; readonly text: string }
  | { readonly kind: "regex"; readonly index: number; readonly source: string; readonly re: RE2JS };

/** Where a pattern matched, in UTF-16 units of the text searched. */
export interface PatternMatch {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Capture groups 1..n (null when a group took no part). */
  readonly groups: readonly (string | null)[];
  /** Named groups, when the pattern has any. */
  readonly named: Readonly<Record<string, string | null>>;
}

/** Compiles a regex source with RE2; throws PatternError saying why not. */
export function compileRegex(source: string): RE2JS {
  try {
    return RE2JS.compile(source, RE2JS.MULTILINE);
  } catch (error) {
    const why = (error as Error).message.replace(/^error parsing regexp: /, "");
    throw new PatternError(
      `--regex ${JSON.stringify(source.slice(0, 60))} is not a valid RE2 regular expression (${why}); backreferences and lookaround are not supported`,
    );
  }
}

/** The patterns of a wait, texts first then regexes, each keeping its index within its kind. */
export function compilePatterns(texts: readonly string[], regexes: readonly string[]): WaitPattern[] {
  return [
    ...texts.map((text, index) => ({ kind: "text" as const, index, text })),
    ...regexes.map((source, index) => ({ kind: "regex" as const, index, source, re: compileRegex(source) })),
  ];
}

/** The first non-empty match of `pattern` in `text` starting at or after `from`. */
export function findFrom(pattern: WaitPattern, text: string, from: number): PatternMatch | undefined {
  if (pattern.kind === "text") {
    if (pattern.text === "") return undefined;
    const at = text.indexOf(pattern.text, from);
    return at < 0 ? undefined : { start: at, end: at + pattern.text.length, text: pattern.text, groups: [], named: {} };
  }
  const matcher = pattern.re.matcher(text);
  for (let at = from; at <= text.length; at++) {
    if (!matcher.find(at)) return undefined;
    const start = matcher.start();
    const end = matcher.end();
    // An empty match ("^", "x*") says nothing appeared: look further on.
    if (end === start) {
      at = start;
      continue;
    }
    const groups: (string | null)[] = [];
    for (let g = 1; g <= matcher.groupCount(); g++) groups.push(matcher.group(g) ?? null);
    const named: Record<string, string | null> = {};
    for (const [name, g] of Object.entries(pattern.re.namedGroups() as Record<string, number>)) named[name] = groups[g - 1] ?? null;
    return { start, end, text: text.slice(start, end), groups, named };
  }
  return undefined;
}

/** How a condition is named in a reply: its kind, index and pattern. */
export function describePattern(pattern: WaitPattern): string {
  return pattern.kind === "text" ? pattern.text : pattern.source;
}
