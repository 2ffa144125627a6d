// Shared by the agent and pty benchmarks: a private agent started through
// the real CLI, an in-process client for it, the runtime's bare start-up as
// the baseline, a private tmux server as the reference, and percentiles.
import { spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AgentClient } from "../../lib/agent/client/client.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The CLI as users run it under Node: the bundle. */
export const CORRAL = [process.execPath, path.join(repoRoot, "dist", "corral.mjs")];

export interface BenchAgent {
  readonly env: Record<string, string>;
  readonly socket: string;
  readonly pid: number;
  client(): Promise<AgentClient>;
  /** `corral ARGS` against this agent; returns stdout, throws on failure. */
  cli(args: readonly string[], input?: string): string;
  rssBytes(): number;
  stop(): void;
}

/**
 * Starts a private agent (fresh state dir) through `corral agent start`;
 * `entry` runs another build's bundle (an A/B run against a baseline).
 */
/**
 * Node flags for the benchmark's agents (CORRAL_BENCH_NODE_FLAGS, split at spaces): the CLI that
 * starts an agent passes its own flags on (self-command.ts), so `--cpu-prof --cpu-prof-dir=DIR`
 * profiles each agent (written when it stops), which NODE_OPTIONS does not allow.
 */
const AGENT_NODE_FLAGS = (process.env.CORRAL_BENCH_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "");

export function startAgent(label: string, entry: string = CORRAL[1] as string): BenchAgent {
  const dir = mkdtempSync(path.join(os.tmpdir(), `corral-bench-${label}-`));
  const env = { ...process.env, CORRAL_STATE_DIR: path.join(dir, "state"), CORRAL_AGENT_IDLE: "10m" } as Record<string, string>;
  const socket = path.join(dir, "state", "agent.sock");
  const cli = (args: readonly string[], input?: string) => {
    const result = spawnSync(CORRAL[0] as string, [...AGENT_NODE_FLAGS, entry, ...args], { env, input, encoding: "utf8", maxBuffer: 1 << 28 });
    if (result.status !== 0) throw new Error(`corral ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  };
  const pid = (JSON.parse(cli(["agent", "start", "--json"])) as { pid: number }).pid;
  return {
    env,
    socket,
    pid,
    cli,
    async client() {
      const client = await AgentClient.open(socket);
      await client.hello();
      return client;
    },
    rssBytes: () => rssOf(pid),
    stop() {
      cli(["agent", "stop", "--force"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process, from /proc (bytes). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * CPU time (ns) a running process's threads have had so far, from
 * /proc/PID/task/TID/schedstat: nanosecond resolution where utime/stime
 * count 10 ms ticks; NaN where the kernel does not keep it.
 */
export function cpuNsOf(pid: number): number {
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    return total;
  } catch {
    return NaN;
  }
}

/** Median wall time of `node -e 0` (or another argv): the start-up floor. */
export function bareStartupMs(runs: number, argv: readonly string[] = [process.execPath, "-e", "0"]): number {
  return median(Array.from({ length: runs }, () => timeMs(() => spawnSync(argv[0] as string, argv.slice(1)))));
}

/**
 * CPU time (user + system, ms) a command and its children used, from the
 * shell's `times`: unlike wall time it hardly moves when other work loads
 * the machine, so start-up costs stay comparable on a busy box.
 */
export function cpuMs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, input?: string): number {
  const result = spawnSync("sh", ["-c", '"$@" >/dev/null 2>&1; times', "sh", ...argv], { env, input, encoding: "utf8" });
  const children = (result.stdout.trim().split("\n").at(-1) ?? "").split(/\s+/);
  const seconds = (text: string | undefined) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(text ?? "");
    return m === null ? NaN : Number(m[1]) * 60 + Number(m[2]);
  };
  return (seconds(children[0]) + seconds(children[1])) * 1000;
}

export function timeMs(work: () => unknown): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at] ?? NaN;
}

/** A tmux server on a private socket with no config; `kill()` ends it. */
export function tmuxServer(label: string) {
  const socket = `corralbench-${label}-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  return {
    socket,
    tmux,
    argv: (...args: string[]) => ["tmux", "-L", socket, "-f", "/dev/null", ...args],
    serverPid: () => Number(tmux("display-message", "-p", "#{pid}").trim()),
    kill() {
      try {
        tmux("kill-server");
      } catch {
        // already gone
      }
    },
  };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
