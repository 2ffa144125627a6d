// The end of a process in a few words, one wording for every place that says
// one: jobs rows (`done (exit 3)`), fg/run --tty after the fact, reap, pty
// list/close and pty attach, the agent's wait ("session 2 exited (exit 3)
// before the condition was met") and its log. Shell-like: "exit 3", "killed
// by SIGKILL". And the end of a supervisor (the guardian) in a sentence:
// "the guardian was killed by SIGKILL", "... exited with status 2".
import type { ExitFacts } from "./exit-facts.ts";

/** "exit 0", "killed by SIGKILL (forced)", "timed out", "end unknown". */
export function describeExit(exit: ExitFacts | null): string {
  if (exit === null) return "end unknown";
  if (exit.timedOut) return "timed out";
  if (exit.signal !== null) return `killed by ${exit.signal}${exit.forced ? " (forced)" : ""}`;
  if (exit.code !== null) return `exit ${exit.code}`;
  return exit.supervisorLost ? `end unknown: supervisor lost (guardian ${exit.supervisorLost.cause})` : "end unknown";
}

/** How a process that is not the child (the guardian) ended, for "the guardian <this>": "was killed by SIGKILL", "exited with status 2". */
export function describeEnd(how: { readonly code: number | null; readonly signal: string | null } | undefined): string {
  if (how === undefined) return "stopped answering";
  return how.signal !== null ? `was killed by ${how.signal}` : `exited with status ${how.code ?? "unknown"}`;
}
