// The credential-shaped names of DESIGN.md 4.7, as word patterns over
// variable names (lib/env/name-pattern.ts, mode "words": each literal part is
// whole words, so `*TOKEN*` drops GITHUB_TOKEN and keeps
// TOKENIZERS_PARALLELISM). Listed once: the scrubber and the config defaults
// both read this. Names that glue words together (NGROK_AUTHTOKEN,
// PGPASSWORD) are listed as such; test/lib/env/env-scrub.test.ts holds the table of
// real names from well-known tools' documentation that must go or stay.

export const DEFAULT_SCRUB_PATTERNS: readonly string[] = [
  "*TOKEN*",
  "*TOKENS*",
  "*AUTHTOKEN*",
  "*APITOKEN*",
  "*ACCESSTOKEN*",
  "*SECRET*",
  "*SECRETS*",
  "*PASSWORD*",
  "*PASSWORDS*",
  "*PASSWD*",
  "*PASS*",
  "*PASSPHRASE*",
  "*_PWD",
  "PGPASSWORD",
  "*API_KEY*",
  "*APIKEY*",
  "*ACCESS_KEY*",
  "*PRIVATE_KEY*",
  "*APP_KEY*",
  "*MASTER_KEY*",
  "*LICENSE_KEY*",
  "*ENCRYPTION_KEY*",
  "*CREDENTIAL*",
  "*CREDENTIALS*",
  "*AUTH*",
  "*PAT*",
  "CORRAL_*",
];

/**
 * Kept even though a pattern matches them (plain globs): an agent socket, and
 * variables that say where a secret is kept, not the secret (AWS's
 * credentials file, Docker's `*_PASSWORD_FILE` convention, pass's store).
 */
export const DEFAULT_SCRUB_EXCEPTIONS: readonly string[] = [
  "SSH_AUTH_SOCK",
  "*_TOKEN_FILE",
  "*_PASSWORD_FILE",
  "*_CREDENTIALS_FILE",
  "*_SECRET_FILE",
  "*_KEY_FILE",
  "PASSWORD_STORE_DIR",
];
