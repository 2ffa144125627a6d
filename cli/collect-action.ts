// `corral collect` itself: check limits, open the stores, run, print.
import { SizeError, parseSize } from "../lib/units/size.ts";
import type { CollectFlags } from "./collect.ts";
import { jsonReport, plainReport, writeAll } from "./collect-report.ts";
import { closeCollectStores, openCollectStores } from "./collect-stores.ts";
import type { CorralContext } from "./context.ts";
import { UsageError } from "./exit-status.ts";
import { reportFacts } from "./run-action.ts";
import { checkFactsTarget } from "./facts-output.ts";
import { loadCommandConfig, prepareRun } from "./run-options.ts";
import { runSupervised } from "./run-supervised.ts";
import { dieIfKilledBy } from "./signal-death.ts";
import { credentialNames, noteDroppedEnv } from "./env-dropped-note.ts";
import { spillsNatively } from "../lib/spawn/backend-choice.ts";

/** The command function of `corral collect` (loaded lazily by cli/collect.ts). */
export async function collectAction(this: CorralContext, flags: CollectFlags, ...argv: string[]): Promise<void> {
  if (flags.job !== undefined || flags.tty) {
    return (await import("./job-collect.ts")).jobCollectAction.call(this, flags, ...argv);
  }
  if (flags.from !== undefined || flags.follow || flags.socket !== undefined) {
    throw new UsageError("--from, --follow and --socket go with --job ID (or --socket with --tty), e.g. corral collect --job %1 --follow");
  }
  const config = await loadCommandConfig(this);
  const maxBytes = flags.maxBytes === undefined ? config.maxBytes : sizeFlag("--max-bytes", flags.maxBytes);
  const headBytes = flags.headBytes === undefined ? config.headBytes : sizeFlag("--head-bytes", flags.headBytes);
  if (flags.spill === "") throw new UsageError("--spill needs a file path, e.g. --spill build.log");
  const factsTarget = checkFactsTarget(flags.facts, false);
  // Check every flag before the spill files are created.
  const checked = await prepareRun(this, flags, argv, {}, config);
  // Under the guardian the spill file is the child's own stdout (no copy through JavaScript).
  const external = flags.spill !== undefined && spillsNatively(config.guardian, this.process.env);
  const stores = await openCollectStores({ headBytes, maxBytes, spill: flags.spill, merge: flags.merge, external });
  const prepared = {
    ...checked,
    spec: {
      ...checked.spec,
      stdin: "inherit" as const,
      stdout: { sink: stores.stdout },
      stderr: stores.stderr === null ? "stdout" as const : { sink: stores.stderr },
    },
  };
  const result = await runSupervised(this, prepared, flags.explain);
  await closeCollectStores(stores, this.process.stderr);
  if (result === null) return;
  if (flags.json) {
    await writeAll(this.process.stdout, [new TextEncoder().encode(jsonReport(argv, result.facts, stores, credentialNames(checked.dropped)))]);
  } else {
    await writeAll(this.process.stdout, plainReport(stores.stdout));
    if (stores.stderr !== null) await writeAll(this.process.stderr, plainReport(stores.stderr));
  }
  await reportFacts(this, flags, result.facts, factsTarget);
  dieIfKilledBy(this, result.forwarded, result.facts);
  if (!flags.json) noteDroppedEnv(this, result.facts, checked.dropped, flags.explain);
}

function sizeFlag(flag: string, text: string): number {
  try {
    return parseSize(text);
  } catch (error) {
    if (error instanceof SizeError) throw new UsageError(`${flag}: ${error.message}`);
    throw error;
  }
}
