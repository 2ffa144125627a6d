// With no agent running there is no job: `fg`, `bg`, `jobs wait ID` and
// `collect --job` answer as for an unknown id (exit 1), in one wording.
import type { CorralContext } from "../context.ts";
import { ExitStatus } from "../exit-status.ts";
import { noteFailure } from "../json-failure.ts";

/** With no agent there is no job: the same status as an unknown id. */
export function noAgent(ctx: CorralContext): void {
  ctx.process.stderr.write("corral: no agent is running, so there are no jobs\n");
  ctx.process.exitCode = ExitStatus.failure;
  noteFailure(ctx.process, "unknown_job", "no agent is running, so there are no jobs");
}
