// The flags of `corral run`: the child flags it shares with `collect`, and
// the job flags (--bg, --tty, --record ...).
export type { CorralContext } from "../../shared/context.ts";
export { commandPositional, type RunFlags, runFlagParameters } from "../../shared/child/flags.ts";
export { type RunJobFlags, runJobFlagParameters } from "../../shared/jobs/flags.ts";
