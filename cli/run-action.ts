// `corral run` itself: prepare, start, forward signals, wait, report.
import type { ExitFacts } from "../lib/spawn/exit-facts.ts";
import { exitStatusOf } from "../lib/spawn/exit-facts.ts";
import type { CorralContext } from "./context.ts";
import type { RunFlags } from "./run-flags.ts";
import type { RunJobFlags } from "./job-flags.ts";
import { UsageError } from "./exit-status.ts";
import { prepareRun } from "./run-options.ts";
import { runSupervised } from "./run-supervised.ts";

/** The command function of `corral run` (loaded lazily by cli/run.ts). */
export async function runAction(this: CorralContext, flags: RunFlags & Partial<RunJobFlags>, ...argv: string[]): Promise<void> {
  if (flags.tty === true || flags.bg === true) {
    return (await import("./job-run.ts")).jobRunAction.call(this, flags as RunFlags & RunJobFlags, ...argv);
  }
  if ((flags.name ?? flags.maxBytes ?? flags.headBytes ?? flags.spill ?? flags.socket) !== undefined) {
    throw new UsageError("--name, --max-bytes, --head-bytes, --spill and --socket go with --bg or --tty, e.g. corral run --bg --name job -- CMD");
  }
  if (flags.record !== undefined || flags.recordMax !== undefined || flags.recordInput === true) {
    throw new UsageError("--record, --record-max and --record-input go with --tty: they record a terminal (corral run --tty --record out.cast -- CMD)");
  }
  const prepared = await prepareRun(this, flags, argv, { stdin: "inherit", stdout: "inherit", stderr: "inherit" });
  const outcome = await runSupervised(this, prepared, flags.explain);
  if (outcome === null) return;
  await reportFacts(this, flags, outcome.facts);
}

/** Writes `--facts FILE` and sets the exit status from the facts. */
export async function reportFacts(context: CorralContext, flags: RunFlags, facts: ExitFacts): Promise<void> {
  context.process.exitCode = exitStatusOf(facts);
  if (flags.facts === undefined) return;
  const { writeFile } = await import("node:fs/promises");
  try {
    await writeFile(flags.facts, JSON.stringify(facts) + "\n");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    context.process.stderr.write(`corral: --facts ${flags.facts}: cannot write (${code}); give a writable path\n`);
    context.process.exitCode = 125;
  }
}
