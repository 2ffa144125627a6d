// corral's own decisions about a `run`/`collect`, one stderr line each, so a
// CI log tells them from the program's behaviour (DESIGN.md 4.10): its
// timeout fired (how long, how many processes got SIGTERM, whether SIGKILL
// was needed), a writer outlived the command holding its output (pid and
// argv), SIGKILL was needed to end what the command left. The facts carry
// the same (timedOut, signalled, forced, survivors); --quiet silences only
// these lines. docs/decisions.md lists them.
import type { ExitFacts } from "../../../lib/core/exit-facts.ts";
import { formatDuration } from "../../../lib/core/duration.ts";
import { commandLine } from "../command-line.ts";

/** What the lines need besides the facts. */
export interface DecisionContext {
  readonly timeoutMs?: number | undefined;
  readonly graceMs: number;
}

const processes = (n: number) => (n === 1 ? "1 process" : `${n} processes`);

/** The lines for these facts, each ending in a newline; none when corral decided nothing. */
export function decisionLines(facts: ExitFacts, run: DecisionContext): string[] {
  const grace = formatDuration(run.graceMs);
  const lines: string[] = [];
  if (facts.timedOut) {
    const after = run.timeoutMs === undefined ? "" : ` after ${formatDuration(run.timeoutMs)}`;
    const ended = facts.forced ? `SIGKILL after ${grace} grace` : `gone within the ${grace} grace`;
    // 0: the tree could not be counted (no /proc), which is not the same as empty.
    const whom = facts.signalled === undefined || facts.signalled === 0 ? "the command's tree" : processes(facts.signalled);
    lines.push(`corral: timed out${after}; SIGTERM to ${whom}, ${ended}\n`);
    return lines;
  }
  const survivors = facts.survivors ?? [];
  if (survivors.length > 0) {
    const named = survivors.map((p) => `pid ${p.pid} (${commandLine(p.argv)})`).join(", ");
    lines.push(`corral: the command exited but ${named} held its output open; waited the ${grace} grace, then terminated ${survivors.length === 1 ? "it" : "them"}\n`);
  }
  if (facts.forced) {
    lines.push(`corral: SIGKILL was needed: what the command left running outlived SIGTERM and the ${grace} grace\n`);
  }
  return lines;
}
