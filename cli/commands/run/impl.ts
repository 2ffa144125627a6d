// `corral run` itself: prepare, start, forward signals, wait, report.
import type { CorralContext } from "../../shared/context.ts";
import type { RunFlags } from "../../shared/child/flags.ts";
import type { RunJobFlags } from "../../shared/jobs/flags.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { wantsRemote } from "../../shared/socket-flag.ts";
import { prepareRun } from "../../shared/child/spawn-spec.ts";
import { checkFactsTarget, reportFacts } from "../../shared/facts-output.ts";
import { runSupervised } from "../../shared/child/supervise.ts";
import { dieIfKilledBy } from "../../shared/signal-death.ts";

/** The command function of `corral run` (loaded lazily by cli/commands/run/command.ts). */
export async function runAction(this: CorralContext, flags: RunFlags & Partial<RunJobFlags>, ...argv: string[]): Promise<void> {
  if (flags.tty !== true && flags.bg !== true && wantsRemote(this, flags as RunJobFlags)) {
    return (await import("./remote.ts")).remoteRunAction.call(this, flags as RunFlags & RunJobFlags, ...argv);
  }
  if (flags.tty === true || flags.bg === true) {
    return (await import("./job.ts")).jobRunAction.call(this, flags as RunFlags & RunJobFlags, ...argv);
  }
  if ((flags.name ?? flags.maxBytes ?? flags.headBytes ?? flags.spill ?? flags.socket) !== undefined) {
    throw new UsageError("--name, --max-bytes, --head-bytes, --spill and --socket go with --bg or --tty, e.g. corral run --bg --name job -- CMD");
  }
  if (flags.record !== undefined || flags.recordMax !== undefined || flags.recordInput === true) {
    throw new UsageError("--record, --record-max and --record-input go with --tty: they record a terminal (corral run --tty --record out.cast -- CMD)");
  }
  const factsTarget = checkFactsTarget(flags.facts, true);
  const prepared = await prepareRun(this, flags, argv, { stdin: "inherit", stdout: "inherit", stderr: "inherit" });
  const outcome = await runSupervised(this, prepared, flags.explain);
  if (outcome === null) return;
  await reportFacts(this, flags, outcome.facts, factsTarget);
  dieIfKilledBy(this, outcome.forwarded, outcome.facts);
}
