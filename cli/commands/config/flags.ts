// The flags of `corral config`, apart from the definition so the lazily
// loaded implementation imports types only.
export type { CorralContext } from "../../shared/context.ts";

/** Flags of `corral config`. */
export interface ConfigFlags {
  readonly json?: boolean;
  readonly path?: boolean;
}
