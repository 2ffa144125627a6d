// Environment names are matched against glob patterns (`*TOKEN*`,
// `MY_COMPANY_*`), ASCII letters case-insensitively: `github_token` is as
// much a credential as `GITHUB_TOKEN`. Compiled once per pattern list, not
// per variable, and matched by hand (a RegExp costs V8 about 0.2 ms to
// compile on first use: start-up, issue 2).
//
// Two modes. "glob": `*` matches any run of characters, the rest literally
// (`--keep-env`, keep lists). "words" (scrub patterns, DESIGN.md 4.7): the
// same, except that every literal part must begin and end on a word
// boundary, so `*TOKEN*` matches GITHUB_TOKEN and npm's `_authToken` but not
// TOKENIZERS_PARALLELISM, and `*AUTH*` matches BASIC_AUTH but not
// GIT_AUTHOR_NAME or XAUTHORITY. Word boundaries: the ends of the name,
// either side of a character that is not an ASCII letter or digit (`_`, `.`,
// `-`, `:`...), and a lower-case letter followed by an upper-case one.

/** How a pattern's literal parts may sit in a name. */
export type PatternMode = "glob" | "words";

/** One pattern split at its `*`s, with its longest literal part for a quick refusal. */
interface CompiledPattern {
  readonly parts: readonly string[];
  readonly middle: readonly string[];
  readonly longest: string;
}

/** A compiled list of name patterns. */
export class NamePatterns {
  readonly #patterns: readonly CompiledPattern[];
  readonly #words: boolean;

  constructor(patterns: readonly string[], mode: PatternMode = "glob") {
    this.#patterns = patterns.map((p) => {
      const parts = upperAscii(p).split("*");
      const longest = parts.reduce((a, b) => (b.length > a.length ? b : a), "");
      return { parts, middle: parts.slice(1, -1), longest };
    });
    this.#words = mode === "words";
  }

  matches(name: string): boolean {
    if (this.#patterns.length === 0) return false;
    const folded = upperAscii(name);
    const boundary = this.#words ? (at: number) => isWordBoundary(name, at) : () => true;
    // Every start of `corral run` checks each variable against each default
    // scrub pattern (about a thousand pairs): most names hold none of a
    // pattern's words, which one indexOf tells.
    return this.#patterns.some((p) => folded.includes(p.longest) && partsMatch(p, folded, boundary));
  }
}

/** `text` with a-z upper-cased and nothing else changed (lengths stay, so indexes hold). */
function upperAscii(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) return text.replace(/[a-z]+/g, (run) => run.toUpperCase());
  }
  return text;
}

function code(name: string, at: number): number {
  return name.charCodeAt(at);
}

function isSeparator(c: number): boolean {
  const letterOrDigit = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c > 0x7f;
  return !letterOrDigit;
}

/** True when a word starts or ends at index `at` of `name` (see the file comment). */
export function isWordBoundary(name: string, at: number): boolean {
  if (at <= 0 || at >= name.length) return true;
  const before = code(name, at - 1);
  const after = code(name, at);
  if (isSeparator(before) || isSeparator(after)) return true;
  return before >= 0x61 && before <= 0x7a && after >= 0x41 && after <= 0x5a;
}

/**
 * `parts` is a pattern split at its `*`s: the name must start with the first,
 * end with the last, hold the rest in order, each where `boundary` allows its
 * start and end. The leftmost allowed place for each middle part is the best
 * choice: the constraint on a part depends only on where that part sits.
 */
function partsMatch({ parts, middle }: CompiledPattern, name: string, boundary: (at: number) => boolean): boolean {
  const first = parts[0] ?? "";
  if (parts.length === 1) return name === first;
  const last = parts[parts.length - 1] ?? "";
  const end = name.length - last.length;
  if (end < first.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  if (first !== "" && !boundary(first.length)) return false;
  if (last !== "" && !boundary(end)) return false;
  let at = first.length;
  for (const part of middle) {
    if (part === "") continue;
    let found = name.indexOf(part, at);
    while (found >= 0 && found + part.length <= end && !(boundary(found) && boundary(found + part.length))) {
      found = name.indexOf(part, found + 1);
    }
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
