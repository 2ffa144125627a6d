// The flags of `corral probe`, apart from the definition so the lazily
// loaded implementation imports types only.
export type { CorralContext } from "../../shared/context.ts";

/** Flags of `corral probe`. */
export interface ProbeFlags {
  readonly json?: boolean;
  readonly build?: boolean;
}
