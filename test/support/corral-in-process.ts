// Runs a corral command line inside the test's own process: the stricli
// application from the registry, with streams that capture what it writes
// and the exit status it would have had. For help, usage errors and bad flag
// values, which are decided before any command does real work: no child
// process to start (a quarter to a half second each on a loaded machine).
// What a user runs end to end stays tested through corral-cli.ts.
import { Writable } from "node:stream";
import type { CorralProcess } from "../../cli/shared/context.ts";
import { runCommandLine } from "../../cli/run-app.ts";

export interface InProcessResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/**
 * A write-only stream that keeps what is written, byte for byte (a real
 * Writable: commands wait for 'drain' and listen for 'error' as on a pipe).
 */
function capture(): { stream: NodeJS.WriteStream; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : Buffer.from(chunk));
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, bytes: () => Buffer.concat(chunks) };
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
  return { code, stdout: stdout.bytes(), stderr: stderr.bytes().toString("utf8") };
}
