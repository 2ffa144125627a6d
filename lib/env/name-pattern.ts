// Environment names are matched against glob patterns (`*TOKEN*`, `AWS_*`),
// case-insensitively: `github_token` is as much a credential as
// `GITHUB_TOKEN`. Compiled once per pattern list, not per variable.
//
// ASCII patterns (all the defaults) are matched by hand: a case-insensitive
// dotAll RegExp costs V8 about 0.2 ms each to compile on first use, some
// 2 ms of every `corral run` for the default list (start-up, issue 2). The
// hand matcher gives the same answers as that RegExp: without the u flag, a
// non-ASCII character never matches an ASCII one case-insensitively, so only
// a-z need folding. Patterns with other characters keep the RegExp.

/** A compiled list of name globs; `*` matches any run of characters. */
export class NamePatterns {
  readonly #globs: readonly (readonly string[])[];
  readonly #regexps: readonly RegExp[];

  constructor(patterns: readonly string[]) {
    const ascii = patterns.filter(isAscii);
    this.#globs = ascii.map((p) => upperAscii(p).split("*"));
    this.#regexps = patterns.filter((p) => !ascii.includes(p)).map(globToRegExp);
  }

  matches(name: string): boolean {
    if (this.#globs.length > 0) {
      const folded = upperAscii(name);
      if (this.#globs.some((parts) => globMatches(parts, folded))) return true;
    }
    return this.#regexps.some((re) => re.test(name));
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function upperAscii(text: string): string {
  return text.replace(/[a-z]+/g, (run) => run.toUpperCase());
}

/** `parts` is a pattern split at its `*`s: the name must start with the first, end with the last, hold the rest in order. */
function globMatches(parts: readonly string[], name: string): boolean {
  const first = parts[0] ?? "";
  if (parts.length === 1) return name === first;
  const last = parts[parts.length - 1] ?? "";
  const end = name.length - last.length;
  if (end < first.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "is");
}
