// Environment names are matched against glob patterns (`*TOKEN*`, `AWS_*`),
// case-insensitively: `github_token` is as much a credential as
// `GITHUB_TOKEN`. Compiled once per pattern list, not per variable.

/** A compiled list of name globs; `*` matches any run of characters. */
export class NamePatterns {
  readonly #regexps: readonly RegExp[];

  constructor(patterns: readonly string[]) {
    this.#regexps = patterns.map(globToRegExp);
  }

  matches(name: string): boolean {
    return this.#regexps.some((re) => re.test(name));
  }
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "is");
}
