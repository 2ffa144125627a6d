// SIGINT/SIGTERM/SIGHUP sent to corral go to the child's whole group, then
// escalate to SIGKILL after the grace (terminate does both); corral itself
// stays alive until the tree is gone, so it never exits leaving it behind.
import process from "node:process";
import type { SupervisedProcess } from "../lib/spawn/backend.ts";

const FORWARDED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Installs the forwarding handlers; call the returned function to remove them. */
export function forwardSignals(child: SupervisedProcess): () => void {
  const handlers = FORWARDED.map((signal) => {
    const handler = () => void child.terminate({ signal });
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
