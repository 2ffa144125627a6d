// Exit statuses of DESIGN.md 4.1, named once so no command invents its own.
export const ExitStatus = {
  ok: 0,
  failure: 1,
  usage: 2,
  timedOut: 124,
  corralFailure: 125,
  notExecutable: 126,
  notFound: 127,
  parked: 148,
} as const;

/** Status for a child killed by signal number `n`, as a shell reports it. */
export function signalStatus(n: number): number {
  return 128 + n;
}

/**
 * A usage error raised by a command after stricli parsed its flags (a bad
 * duration, a bad size). cli/run-app.ts prints its message as one line and
 * exits 2.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
