// The one error a bad config file raises. Its message is one line that names
// the file, the line and the key, and says what would be right; `run`,
// `collect` and `corral config` print it after `corral: ` and exit 2.

/** A config file that cannot be used (missing, unreadable, bad YAML, bad key or value). */
export class ConfigError extends Error {
  /**
   * By brand, not by class: the built CLI's hot commands load the YAML reader
   * (from-yaml.ts) as a file of its own with its own copy of this class
   * (cli/hot/build.mjs), and its errors must still be ConfigErrors.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { isConfigError?: unknown }).isConfigError === true;
  }

  readonly isConfigError = true;
  override readonly name = "ConfigError";
  /** The file at fault. */
  readonly file: string;
  /** 1-based line of the offending key or value, when known. */
  readonly line: number | undefined;
  /** Dotted key path (`terminal.cols`), when one key is at fault. */
  readonly key: string | undefined;

  constructor(file: string, line: number | undefined, key: string | undefined, problem: string) {
    const where = line === undefined ? file : `${file}:${line}`;
    super(`${where}: ${key === undefined ? "" : `${key}: `}${problem}`.replace(/\s*\n\s*/g, " "));
    this.file = file;
    this.line = line;
    this.key = key;
  }
}
