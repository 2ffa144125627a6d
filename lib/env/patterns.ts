// The credential-shaped names of DESIGN.md 4.7, as glob patterns over
// variable names (case-insensitive; `*` matches any run of characters).
// Listed once: the scrubber and the config defaults both read this.

export const DEFAULT_SCRUB_PATTERNS: readonly string[] = [
  "*TOKEN*",
  "*SECRET*",
  "*PASSWORD*",
  "*PASSWD*",
  "*API_KEY*",
  "*APIKEY*",
  "*PRIVATE_KEY*",
  "*CREDENTIAL*",
  "*AUTH*",
  "AWS_*",
  "CORRAL_*",
];

/** Names kept even though a pattern matches them (an agent socket is no secret). */
export const DEFAULT_SCRUB_EXCEPTIONS: readonly string[] = ["SSH_AUTH_SOCK"];
