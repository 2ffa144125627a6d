// The flags of `corral mcp` (types and the shared parsers; the definition
// in command.ts, the server in impl.ts).
export type { CorralContext } from "../../shared/context.ts";
export { socketFlag } from "../../shared/socket-flag.ts";
export { parseDurationFlag, parseIntFlag } from "../../shared/flag-parsers.ts";

/** Parsed flags of `corral mcp`. */
export interface McpFlags {
  readonly readOnly: boolean;
  readonly allow?: readonly string[];
  readonly budget?: number;
  readonly maxLine?: number;
  readonly waitCap?: number;
  readonly scrub: boolean;
  readonly socket?: string;
}
