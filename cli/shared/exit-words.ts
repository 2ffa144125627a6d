// The end of a process in a few words, one wording for every command that
// prints one: jobs rows (`done (exit 3)`), fg/run --tty after the fact, reap,
// pty list/close and pty attach. Shell-like: "exit 3", "killed by SIGKILL".
import type { ExitFacts } from "../../lib/core/exit-facts.ts";

/** "exit 0", "killed by SIGKILL (forced)", "timed out", "end unknown". */
export function describeExit(exit: ExitFacts | null): string {
  if (exit === null) return "end unknown";
  if (exit.timedOut) return "timed out";
  if (exit.signal !== null) return `killed by ${exit.signal}${exit.forced ? " (forced)" : ""}`;
  if (exit.code !== null) return `exit ${exit.code}`;
  if (exit.supervisorLost) return `end unknown: supervisor lost (guardian ${exit.supervisorLost.cause})`;
  return exit.unknownWhy !== undefined ? `end unknown: ${exit.unknownWhy}` : "end unknown";
}
