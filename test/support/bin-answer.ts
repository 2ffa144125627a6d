// The installed `corral` (dist/corral: the native client, which hands what
// the agent does not serve to the JavaScript CLI) run once as a script
// would: its status, stdout and stderr, whole. Killed (and the test failed)
// if it runs past 60 s.
import { spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./corral-cli.ts";

export const BIN = path.join(repoRoot, "dist", "corral");

export interface Answer {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface BinOptions {
  readonly uid?: number;
  readonly gid?: number;
  readonly cwd?: string;
  /** Written to stdin, which is then ended; without it stdin is /dev/null. */
  readonly input?: string | Uint8Array;
}

/** `dist/corral ARGS` under `env` (the JavaScript CLI it hands over to runs under this Node). */
export function runBin(args: readonly string[], env: Record<string, string>, options: BinOptions = {}): Promise<Answer> {
  const child = spawn(BIN, args, {
    env: { ...process.env, CORRAL_JS_RUNTIME: process.execPath, ...env },
    cwd: options.cwd ?? repoRoot,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on("data", (c: Buffer) => out.push(c));
  child.stderr?.on("data", (c: Buffer) => err.push(c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`corral ${args.join(" ")} still running after 60 s`));
    }, 60_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}
