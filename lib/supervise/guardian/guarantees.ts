// What corral promises only with the guardian (README "Without it"), named
// so `corral probe` can list exactly what a machine without it loses.
import type { RuntimeTraits } from "../../runtime/traits.ts";

/** One guarantee the fallbacks cannot give. */
export interface Guarantee {
  /** A stable name for scripts reading `probe --json`. */
  readonly name: string;
  /** What is lost, in a line. */
  readonly lost: string;
}

/**
 * The guarantees lost when the guardian is not in use, on `runtime`;
 * `nodePtyWorks` says whether node-pty can stand in for terminal sessions.
 */
export function guaranteesLostWithoutGuardian(runtime: Pick<RuntimeTraits, "nodePtySessions">, nodePtyWorks: boolean): Guarantee[] {
  const lost: Guarantee[] = [
    { name: "tty-jobs", lost: "run --tty, collect --tty and fg on a terminal fail (status 125): terminal jobs need the guardian" },
    { name: "escapee-kill", lost: "a timeout or exit kills the child's process group only: a descendant that calls setsid() or double-forks survives" },
    { name: "exact-stop-continue", lost: "stop and continue of background jobs are polled, not reported as they happen" },
    { name: "pid-reuse-safe-signals", lost: "signals go by pid, without a pidfd pinning the process against pid reuse" },
  ];
  if (!runtime.nodePtySessions) {
    lost.push({ name: "pty-under-bun", lost: "no terminal sessions at all: node-pty does not work under Bun, so pty open fails" });
  } else if (!nodePtyWorks) {
    lost.push({ name: "terminal-sessions", lost: "no terminal sessions at all: node-pty cannot open a PTY here, so pty open fails" });
  } else {
    lost.push({ name: "exit-drain", lost: "terminal sessions run on node-pty, which can lose a program's last output when it exits" });
  }
  return lost;
}
