// The settings of one `corral mcp` server, from its flags: the output
// budget, the longest a call waits before answering done:false, and the
// safety switches. Checked once where they enter (command.ts parsers).

/** What the flags of `corral mcp` decide. */
export interface McpOptions {
  /** Characters of command output or screen text one answer holds (head plus tail). */
  readonly budget: number;
  /** A line longer than this is clipped in the middle. */
  readonly maxLineChars: number;
  /** The longest one call waits, below the common 60 s client deadline. */
  readonly waitCapMs: number;
  /** Between progress notifications while a call waits. */
  readonly progressEveryMs: number;
  /** Only screens, lists, reads and waits. */
  readonly readOnly: boolean;
  /** Globs a command must match to be started (empty: any). */
  readonly allow: readonly string[];
  /** Drop credential-shaped variables from what children get (on unless --no-scrub). */
  readonly scrub: boolean;
  /** The agent's socket (--socket), else the usual place. */
  readonly socket?: string;
}

export const DEFAULT_BUDGET = 30_000;
export const DEFAULT_MAX_LINE_CHARS = 2_000;
export const DEFAULT_WAIT_CAP_MS = 45_000;
/** The cap must stay below what clients commonly allow a request. */
export const MAX_WAIT_CAP_MS = 59_000;
