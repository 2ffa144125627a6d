// Dying of the signal that killed the child (DESIGN.md 4.1, 4.8), as GNU
// timeout does: a shell waiting for corral sees "killed by SIGINT", not
// "exited 130", and its wait-and-cooperative-exit rule ends a `for` loop on
// Ctrl-C. The handlers corral installed are gone by now, so the runtime's
// default disposition applies (checked on Node, Deno and Bun). SIGQUIT's
// default is a core dump: where core dumps are enabled (ulimit -c), the
// runtime may leave one, as any program killed by SIGQUIT does.
import process from "node:process";
import { ExitStatus } from "./exit-status.ts";
import type { CorralContext } from "./context.ts";

/** The signals corral forwards to its child and may then die of. */
export const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const satisfies readonly NodeJS.Signals[];

/** Facts that decide whether corral dies of a forwarded signal. */
export interface EndAfterSignal {
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly forced: boolean;
}

/**
 * Marks the command to die of `forwarded` when the child ended because of
 * it: killed by that very signal, or by the SIGKILL that followed it after
 * the grace. A child that handled the signal and exited keeps its status.
 */
export function dieIfKilledBy(context: CorralContext, forwarded: NodeJS.Signals | null, end: EndAfterSignal): void {
  if (forwarded === null || end.timedOut) return;
  if (end.signal === forwarded || (end.signal === "SIGKILL" && end.forced)) context.process.dieOf = forwarded;
}

/** Flushes stdout and stderr, then raises `signal` with its default action; never returns normally. */
export async function dieOfSignal(signal: NodeJS.Signals): Promise<void> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write("", () => resolve()))));
  process.kill(process.pid, signal);
  // Only reached if something still catches the signal: the status says what happened.
  await new Promise((resolve) => setTimeout(resolve, 1000).unref());
  process.exitCode = process.exitCode ?? ExitStatus.corralFailure;
}
