// Runs a corral command line inside the test's own process: the stricli
// application from the registry, with streams that capture what it writes
// and the exit status it would have had. For help, usage errors and bad flag
// values, which are decided before any command does real work: no child
// process to start (a quarter to a half second each on a loaded machine).
// What a user runs end to end stays tested through corral-cli.ts.
import type { CorralProcess } from "../../cli/context.ts";
import { runCommandLine } from "../../cli/run-app.ts";

export interface InProcessResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** A write-only stream that keeps what is written. */
function capture(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: string[] = [];
  const stream = {
    write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      done?.();
      return true;
    },
  };
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join("") };
}

/**
 * Runs `corral ...args` in-process. `env` is laid over this process's
 * environment, as corral-cli.ts does for a child.
 */
export async function corralInProcess(
  args: readonly string[],
  options: { env?: Record<string, string | undefined> } = {},
): Promise<InProcessResult> {
  const stdout = capture();
  const stderr = capture();
  const corralProcess: CorralProcess = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { ...process.env, ...options.env },
  };
  const code = await runCommandLine(args, corralProcess);
  return { code, stdout: Buffer.from(stdout.text()), stderr: stderr.text() };
}
