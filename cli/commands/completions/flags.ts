// The flags of `corral completions`, apart from the definition so the
// implementation imports them without the definition.
export type { CorralContext } from "../../shared/context.ts";
import { ID_KINDS, type IdKind } from "./ids.ts";
export { ID_KINDS };

/** The shells a script can be generated for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
/** One of SHELLS. */
export type Shell = (typeof SHELLS)[number];

/** Flags of `corral completions`. */
export interface CompletionsFlags {
  readonly ids?: IdKind;
  readonly write?: string;
}
