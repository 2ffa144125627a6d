// With --json, a failed command still prints one JSON object on stdout:
// {"ok": false, "error": {"code", "message", "status"}}, the codes those of
// `connect` (lib/core/corral-error.ts), the exit status unchanged. A script
// that parses stdout then reads the reason instead of a JSON parse error.
// Watched in one place for every command (run-routes.ts): whatever failed
// (a usage error stricli caught, a command not found, an unknown session)
// and printed nothing on stdout gets the object; a command that printed its
// own object (collect's report of a command that ran and failed, pty wait's
// timeout) keeps it alone. The code is the one the failure was raised with
// (noteFailure), else the one its exit status stands for.
import type { CorralProcess } from "./context.ts";
import { ExitStatus } from "./exit-status.ts";

/** What a command records when it knows the code of its failure. */
export interface CommandFailure {
  readonly code: string;
  readonly message: string;
}

/** The code an exit status stands for when no failure was noted with its own. */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  [ExitStatus.usage]: "bad_request",
  [ExitStatus.notFound]: "command_not_found",
  [ExitStatus.notExecutable]: "command_not_executable",
  [ExitStatus.timedOut]: "timeout",
  [ExitStatus.corralFailure]: "internal",
};

/** Records the failure's own code for the --json object (the last noted wins). */
export function noteFailure(corralProcess: CorralProcess, code: string, message: string): void {
  corralProcess.failure = { code, message };
}

/** True when `args` ask for --json (before any `--`: what follows is the command's). */
export function asksForJson(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg === "--json") return true;
  }
  return false;
}

/** Watches what a command writes; `finish(status)` prints the object when it failed silently on stdout. */
export function watchForJsonFailure(corralProcess: CorralProcess): { process: CorralProcess; finish: (status: number) => void } {
  let wroteStdout = false;
  let lastLine = "";
  const watched = (stream: NodeJS.WriteStream, onWrite: (chunk: unknown) => void): NodeJS.WriteStream =>
    new Proxy(stream, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key === "write") {
          return (chunk: unknown, ...rest: unknown[]) => {
            onWrite(chunk);
            return (target.write as (...a: unknown[]) => boolean).call(target, chunk, ...rest);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const watchedProcess: CorralProcess = Object.defineProperties({} as CorralProcess, {
    stdout: { value: watched(corralProcess.stdout, (chunk) => {
      if (chunk !== undefined && (chunk as { length?: number }).length !== 0) wroteStdout = true;
    }) },
    stderr: { value: watched(corralProcess.stderr, (chunk) => {
      const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? new TextDecoder().decode(chunk) : "";
      for (const line of text.split("\n")) if (line.startsWith("corral: ")) lastLine = line.slice("corral: ".length);
    }) },
    env: { value: corralProcess.env },
    exitCode: { get: () => corralProcess.exitCode, set: (v) => (corralProcess.exitCode = v), enumerable: true },
    dieOf: { get: () => corralProcess.dieOf, set: (v) => (corralProcess.dieOf = v), enumerable: true },
    failure: { get: () => corralProcess.failure, set: (v) => (corralProcess.failure = v), enumerable: true },
    jsonElsewhere: { get: () => corralProcess.jsonElsewhere, set: (v) => (corralProcess.jsonElsewhere = v), enumerable: true },
  });
  const finish = (status: number) => {
    if (status === ExitStatus.ok || wroteStdout || corralProcess.jsonElsewhere === true) return;
    const noted = corralProcess.failure;
    const code = noted?.code ?? CODE_OF_STATUS[status] ?? "failed";
    const message = noted?.message ?? (lastLine.replace(/ \(see (corral )?--help\)$/, "") || `exited ${status}`);
    corralProcess.stdout.write(`${JSON.stringify({ ok: false, error: { code, message, status } })}\n`);
  };
  return { process: watchedProcess, finish };
}
