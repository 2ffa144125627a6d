// Runs the corral CLI as a real child process under the runtime chosen for
// this test run (CORRAL_TEST_RUNTIME = node | deno | bun), so the smoke
// subset exercises the same commands on all three.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const runtime = (process.env.CORRAL_TEST_RUNTIME ?? "node") as "node" | "deno" | "bun";

/** The argv prefix that starts corral under the runtime under test. */
export function corralCommand(): string[] {
  const bin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);
  switch (runtime) {
    case "node":
      // What npm links as `corral` (package.json "bin"): dist/corral, the native client,
      // which the agent answers for the commands it serves and which hands every other
      // command line to the JavaScript CLI (dist/corral.cjs) under Node. The JavaScript
      // CLI's own client side of the served commands is run by the scripts' JavaScript
      // shard, test/cli/native-client/ (both doors, byte for byte) and CORRAL_CLIENT=js;
      // CORRALTEST_DOOR=js runs every test through the JavaScript CLI instead.
      if (process.env.CORRALTEST_DOOR === "js") return [process.execPath, path.join(repoRoot, "dist", "corral.cjs")];
      return [path.join(repoRoot, "dist", "corral")];
    case "deno":
      return [bin("deno"), "run", "--allow-all", "--quiet", path.join(repoRoot, "cli", "main.ts")];
    case "bun":
      return [bin("bun"), path.join(repoRoot, "cli", "main.ts")];
  }
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly pid: number;
}

export interface CliOptions {
  readonly env?: Record<string, string | undefined>;
  readonly input?: string | Buffer;
  readonly cwd?: string;
  /** Deadline after which the CLI is killed and the test fails; generous. */
  readonly deadlineMs?: number;
  /** Called once the CLI process has started (to signal it, say). */
  readonly onSpawn?: (pid: number) => void;
  /** Called with all of stderr so far each time more arrives (to act on a line as it appears). */
  readonly onStderr?: (soFar: string) => void;
}

export function corral(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const [file, ...prefix] = corralCommand() as [string, ...string[]];
  const child = spawn(file, [...prefix, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => stdout.push(c));
  child.stderr.on("data", (c: Buffer) => {
    stderr.push(c);
    options.onStderr?.(Buffer.concat(stderr).toString("utf8"));
  });
  child.stdin.on("error", () => {});
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  const deadlineMs = options.deadlineMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`corral ${args.join(" ")} still running after ${deadlineMs} ms`));
    }, deadlineMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString("utf8"),
        pid: child.pid ?? -1,
      });
    });
  });
}
