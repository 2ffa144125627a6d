// The one error a bad config file raises. Its message is one line that names
// the file, the line and the key, and says what would be right; `run`,
// `collect` and `corral config` print it after `corral: ` and exit 2.

/** A config file that cannot be used (missing, unreadable, bad YAML, bad key or value). */
export class ConfigError extends Error {
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
