// How the chaos run drives corral: the built CLI as a user would run it,
// with the run's private state dir and its marker in the environment (so
// every process of the run, agent and guardians included, can be found).
import { spawn, type ChildProcess } from "node:child_process";
import { corralCommand } from "../support/corral-cli.ts";

/** What one corral command did; `code` null when it was killed (by a fault). */
export interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** A running corral command: its process (for faults) and its result. */
export interface Client {
  readonly child: ChildProcess;
  readonly done: Promise<Ran>;
}

/** The environment every command of the run gets. */
export interface RunEnv {
  readonly stateDir: string;
  readonly marker: string;
  readonly markerValue: string;
  readonly cwd: string;
}

export function startCorral(env: RunEnv, args: readonly string[], deadlineMs = 120_000): Client {
  const [file, ...prefix] = corralCommand() as [string, ...string[]];
  const started = Date.now();
  const child = spawn(file, [...prefix, ...args], {
    cwd: env.cwd,
    env: { ...process.env, CORRAL_STATE_DIR: env.stateDir, [env.marker]: env.markerValue, CORRAL_GUARDIAN: "always" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => (stdout = (stdout + c.toString("utf8")).slice(-256 * 1024)));
  child.stderr!.on("data", (c: Buffer) => (stderr = (stderr + c.toString("utf8")).slice(-64 * 1024)));
  const done = new Promise<Ran>((resolve) => {
    const timer = setTimeout(() => {
      stderr += `\n[chaos] corral ${args.join(" ")} still running after ${deadlineMs} ms: killed`;
      child.kill("SIGKILL");
    }, deadlineMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr: stderr + String(error), ms: Date.now() - started });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
  return { child, done };
}

export function corralRun(env: RunEnv, args: readonly string[], deadlineMs?: number): Promise<Ran> {
  return startCorral(env, args, deadlineMs).done;
}

/** The JSON a command printed, or undefined. */
export function jsonOf<T>(ran: Ran): T | undefined {
  try {
    return JSON.parse(ran.stdout) as T;
  } catch {
    return undefined;
  }
}
