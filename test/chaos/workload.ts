// What a chaos round runs: background jobs whose spill must come out
// byte-exact (their output is known in advance, so its sha256 is too),
// terminal sessions (bash, vim, a flood), collect runs with a timeout or a
// status of their own, and clients that wait on a job. Each item keeps what
// the faults did to it, so the invariants know which loss must be reported.
import { createHash } from "node:crypto";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { type Client, corralRun, type Ran, type RunEnv, startCorral } from "./cli.ts";
import type { Random } from "./random.ts";

/** A job with a spill file; the output it writes and its status are known. */
export interface SpillJob {
  readonly kind: "job";
  readonly name: string;
  readonly spill: string;
  readonly expected: Buffer;
  readonly status: number;
  /** The spill sits on a small tmpfs filled up to leave less room than the output needs. */
  readonly onFullDisk: boolean;
  started: boolean;
  guardianKilled: boolean;
}

/** A terminal session and how it is to end. */
export interface Session {
  readonly kind: "session";
  readonly name: string;
  readonly program: "bash" | "vim" | "flood";
  started: boolean;
  guardianKilled: boolean;
}

/** A command this run holds (collect, jobs wait): its process is a fault's target. */
export interface ClientItem {
  readonly kind: "collect" | "wait";
  readonly label: string;
  readonly client: Client;
  /** collect: the status the command must give; wait: the job whose status it must give. */
  readonly expectStatus?: number;
  readonly job?: SpillJob;
  killed: boolean;
}

export type Item = SpillJob | Session | ClientItem;

function expectedOutput(parts: number, lines: number): Buffer {
  const out: string[] = [];
  for (let n = 1; n <= parts * lines; n++) out.push(String(n));
  return Buffer.from(out.join("\n") + "\n");
}

/** sha256 of bytes, hex. */
export function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export async function startSpillJob(env: RunEnv, rng: Random, name: string, dir: string, onFullDisk: boolean): Promise<SpillJob> {
  const parts = rng.int(8, 24);
  const lines = rng.int(2000, 15000);
  const status = rng.pick([0, 0, 1, 3]);
  const script = `i=0; while [ $i -lt ${parts} ]; do seq $((i*${lines}+1)) $((i*${lines}+${lines})); i=$((i+1)); sleep 0.05; done; exit ${status}`;
  const job: SpillJob = {
    kind: "job", name, spill: path.join(dir, `${name}.log`), expected: expectedOutput(parts, lines), status, onFullDisk,
    started: false, guardianKilled: false,
  };
  const ran = await corralRun(env, ["run", "--bg", "--name", name, "--spill", job.spill, "--", "sh", "-c", script], 60_000);
  job.started = ran.code === 0;
  return job;
}

export async function startSession(env: RunEnv, name: string, program: Session["program"]): Promise<Session> {
  const argv = program === "bash" ? ["bash", "--norc", "--noprofile"]
    : program === "vim" ? ["vim", "-u", "NONE", "-N", "-n"]
    : ["sh", "-c", "seq 1 200000; exec sleep 120"];
  const ran = await corralRun(env, ["pty", "open", "--name", name, "--", ...argv], 60_000);
  return { kind: "session", name, program, started: ran.code === 0, guardianKilled: false };
}

export function startCollect(env: RunEnv, label: string, timed: boolean): ClientItem {
  const args = timed
    ? ["collect", "--timeout", "1s", "--", "sh", "-c", "seq 1 3000; exec sleep 60"]
    : ["collect", "--", "sh", "-c", "seq 1 30000; exit 3"];
  return { kind: "collect", label, client: startCorral(env, args, 90_000), expectStatus: timed ? 124 : 3, killed: false };
}

export function startWait(env: RunEnv, job: SpillJob): ClientItem {
  return { kind: "wait", label: `wait ${job.name}`, client: startCorral(env, ["jobs", "wait", job.name, "--timeout", "80s"], 90_000), job, killed: false };
}

/** Ends a session the way its program ends (bash: exit 5, vim: :q!), or closes it (the flood). */
export async function endSession(env: RunEnv, s: Session): Promise<Ran> {
  if (s.program === "bash") await corralRun(env, ["pty", "send", s.name, "exit 5", "--key", "Enter"], 30_000);
  if (s.program === "vim") {
    await corralRun(env, ["pty", "send", s.name, "--key", "Escape"], 30_000);
    await corralRun(env, ["pty", "send", s.name, ":q!", "--key", "Enter"], 30_000);
  }
  if (s.program !== "flood") await corralRun(env, ["pty", "wait", s.name, "--exit", "--timeout", "20s"], 40_000);
  return await corralRun(env, ["pty", "close", s.name, "--grace", "1s", "--json"], 60_000);
}

/** The process of a client item, when it still runs. */
export function clientProcess(item: ClientItem): ChildProcess | null {
  return item.client.child.exitCode === null && item.client.child.signalCode === null ? item.client.child : null;
}
