// Exit statuses of DESIGN.md 4.1, named once so that neither lib/ nor a
// command invents its own 124-127 literals. cli/ re-exports them.
export const ExitStatus = {
  ok: 0,
  failure: 1,
  usage: 2,
  timedOut: 124,
  corralFailure: 125,
  notExecutable: 126,
  notFound: 127,
  parked: 148,
  /** The connection to a remote agent failed or was lost (ssh's own status for that). */
  connectionLost: 255,
} as const;

/** Status for a child killed by signal number `n`, as a shell reports it. */
export function signalStatus(n: number): number {
  return 128 + n;
}
