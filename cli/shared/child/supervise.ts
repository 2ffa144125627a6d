// Starting and waiting on a child, shared by `run` and `collect`: spawn
// failures become their statuses (127/126/2/125) with one line on stderr,
// signals to corral are forwarded, and pids that could not be confirmed gone
// are named rather than guessed about.
import { SpawnError } from "../../../lib/supervise/spawn-error.ts";
import { chooseSupervisor } from "../../../lib/supervise/decide.ts";
import { endOf, startPipeTree } from "../../../lib/supervise/start.ts";
import type { SupervisionResult } from "../../../lib/supervise/handle.ts";
import type { CorralContext } from "../context.ts";
import type { PreparedRun } from "./spawn-spec.ts";
import { SignalForwarder } from "./forward-signals.ts";
import { errorLine } from "../error-line.ts";
import { noteFailure } from "../json-failure.ts";
import { announceWithheld } from "../env-dropped-note.ts";
import { decisionLines } from "./decision-lines.ts";

/** How the child ended, plus the signal corral forwarded to it (null when none). */
export interface RunOutcome extends SupervisionResult {
  readonly forwarded: NodeJS.Signals | null;
}

/** Runs the prepared spec to the end; null when it could not start (status already set). */
export async function runSupervised(
  context: CorralContext,
  prepared: PreparedRun,
  explain: boolean,
): Promise<RunOutcome | null> {
  const { stderr } = context.process;
  const forwarder = new SignalForwarder();
  let child;
  let backendWhy = "";
  try {
    const choice = chooseSupervisor({ mode: "pipe", sweep: "on-exit", guardian: prepared.config.guardian, env: context.process.env });
    backendWhy = choice.why;
    child = await startPipeTree(choice, prepared.spec);
  } catch (error) {
    forwarder.remove();
    // A guardian required but unusable is a backend-unavailable SpawnError: 125.
    if (!(error instanceof SpawnError)) throw error;
    stderr.write(errorLine(error.message));
    context.process.exitCode = error.exitStatus;
    noteFailure(context.process, error.code, error.message);
    return null;
  }
  forwarder.attach(child);
  announceWithheld(context, prepared.dropped, prepared.quiet);
  if (explain) {
    for (const line of prepared.explain) stderr.write(`corral: explain: ${line}\n`);
    stderr.write(`corral: explain: started pid ${child.pid} under ${backendWhy}\n`);
  }
  try {
    const result = await endOf(child);
    const lost = result.facts.supervisorLost;
    if (lost !== undefined) {
      const exit = result.facts.code === null && result.facts.signal === null ? "the child's exit is unknown" : "the child's exit was already known";
      stderr.write(`corral: supervisor lost: the guardian (pid ${lost.pid}) ${lost.cause} while supervising pid ${child.pid}; ${exit}; ${lost.cleanup}\n`);
    }
    for (const fault of result.faults ?? []) stderr.write(`corral: guardian: ${fault}\n`);
    if (!prepared.quiet) {
      for (const line of decisionLines(result.facts, prepared.spec)) stderr.write(line);
    }
    if (result.uncertain.length > 0) {
      stderr.write(`corral: could not confirm gone after SIGKILL: pids ${result.uncertain.join(", ")}\n`);
    }
    return { ...result, forwarded: forwarder.forwarded };
  } finally {
    forwarder.remove();
  }
}
