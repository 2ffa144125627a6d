// Many sessions busy at once (issue 9): N sessions (8 by default) flood
// output with `yes` at the same time while one quiet `cat` session's screen
// is read every 100 ms. Prints the flood's aggregate throughput (bytes the
// agent took in per second), the quiet session's screen latency (p50/p95),
// and where the CPU went (the agent process against the whole machine), in
// the same run as two baselines: no flood, and one flooding session. The CPU
// split is what decides whether parsing on worker threads could gain on this
// machine (README, "Round trips and busy sessions").
import { readFileSync, readdirSync } from "node:fs";
import { fmt, percentile, startAgent } from "./agent-bench-kit.ts";

const FLOODS = Number(process.env.CORRAL_BENCH_SESSIONS ?? 8);
const SECONDS = Number(process.env.CORRAL_BENCH_SECONDS ?? 10);
const READ_EVERY_MS = 100;
const out = (line: string) => process.stdout.write(`${line}\n`);
const TICKS_PER_SECOND = 100; // USER_HZ: clock ticks in /proc/PID/stat and /proc/stat

type Client = Awaited<ReturnType<ReturnType<typeof startAgent>["client"]>>;

/** CPU seconds (user + system) a process used so far, from /proc/PID/stat. */
function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Seconds the agent's main thread spent runnable but waiting for a core
 * (/proc/PID/task/PID/schedstat, second field, ns): on a shared machine this
 * tells a starved event loop from a busy one.
 */
function mainThreadWaitSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").trim().split(" ");
  return Number(fields[1]) / 1e9;
}

/** CPU seconds of every descendant of `root` (its guardians and their programs), from /proc. */
function descendantsCpuSeconds(root: number): number {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // gone while listing
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, seconds] of cpu) if (under(pid)) total += seconds;
  return total;
}

/** Busy CPU seconds of the whole machine (every core), from /proc/stat. */
function machineBusySeconds(): number {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
  return (cpu.reduce((sum, n) => sum + n, 0) - idle) / TICKS_PER_SECOND;
}

async function outputBytes(client: Client, ids: readonly string[]): Promise<number> {
  const { sessions } = await client.call({ op: "list" });
  return sessions.filter((s) => ids.includes(s.id)).reduce((sum, s) => sum + s.position, 0);
}

interface Phase {
  readonly floods: number;
  readonly mbPerSecond: number;
  readonly reads: number[];
  readonly agentCores: number;
  readonly childrenCores: number;
  readonly machineCores: number;
  /** Share of the time the agent's main thread was ready to run and had no core. */
  readonly agentWaiting: number;
}

/** Opens `floods` flooding sessions, reads the quiet screen every 100 ms for SECONDS, closes the floods. */
async function phase(client: Client, reader: Client, agentPid: number, quiet: string, floods: number): Promise<Phase> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const ids: string[] = [];
  for (let i = 0; i < floods; i++) {
    const opened = await client.call({ op: "open", argv: ["sh", "-c", `exec yes 'session ${i} floods the terminal with a line of output that never ends'`], env });
    ids.push(opened.session.id);
  }
  // Every flood at full speed before the clock starts.
  for (const id of ids) await client.call({ op: "wait", session: id, text: ["floods"], timeoutMs: 60_000 });
  const bytesBefore = await outputBytes(client, ids);
  const agentBefore = processCpuSeconds(agentPid);
  const childrenBefore = descendantsCpuSeconds(agentPid);
  const waitBefore = mainThreadWaitSeconds(agentPid);
  const machineBefore = machineBusySeconds();
  const started = performance.now();
  const reads: number[] = [];
  while (performance.now() - started < SECONDS * 1000) {
    const at = performance.now();
    await reader.call({ op: "screen", session: quiet });
    reads.push(performance.now() - at);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, READ_EVERY_MS - (performance.now() - at))));
  }
  const elapsed = (performance.now() - started) / 1000;
  const bytes = (await outputBytes(client, ids)) - bytesBefore;
  const agentCores = (processCpuSeconds(agentPid) - agentBefore) / elapsed;
  const childrenCores = (descendantsCpuSeconds(agentPid) - childrenBefore) / elapsed;
  const agentWaiting = (mainThreadWaitSeconds(agentPid) - waitBefore) / elapsed;
  const machineCores = (machineBusySeconds() - machineBefore) / elapsed;
  for (const id of ids) await client.call({ op: "close", session: id, force: true });
  return { floods, mbPerSecond: bytes / elapsed / 1e6, reads, agentCores, childrenCores, machineCores, agentWaiting };
}

const agent = startAgent("many-sessions");
try {
  const client = await agent.client();
  // The quiet session's reads go on their own connection, as another driver's would.
  const reader = await agent.client();
  const quiet = (await client.call({ op: "open", argv: ["cat"], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } })).session.id;
  const phases: Phase[] = [];
  for (const floods of [0, 1, FLOODS]) phases.push(await phase(client, reader, agent.pid, quiet, floods));
  client.close();
  reader.close();
  out(`quiet session read every ${READ_EVERY_MS} ms for ${SECONDS} s while N sessions flood with yes (${(await import("node:os")).cpus().length} cores)`);
  out(`  CPU in cores: the agent process (its event loop parses every screen), its guardians and programs, and the whole machine`);
  out(`  "agent waits": share of the time the agent's main thread was ready to run but had no core`);
  out(`  N  | flood MB/s | quiet p50 | quiet p95 |   max    | agent | agent waits | guardians+programs | machine`);
  for (const p of phases) {
    const cells = [
      String(p.floods).padEnd(2),
      fmt(p.mbPerSecond, 1).padStart(10),
      `${fmt(percentile(p.reads, 50), 2).padStart(6)} ms`,
      `${fmt(percentile(p.reads, 95), 2).padStart(6)} ms`,
      `${fmt(Math.max(...p.reads), 1).padStart(5)} ms`,
      fmt(p.agentCores, 2).padStart(5),
      `${fmt(p.agentWaiting * 100, 0).padStart(10)}%`,
      fmt(p.childrenCores, 2).padStart(18),
      fmt(p.machineCores, 2).padStart(7),
    ];
    out(`  ${cells.join(" | ")}`);
  }
  const [calm, one, many] = phases as [Phase, Phase, Phase];
  out(`  ratio ${FLOODS} floods / 1 flood: throughput ${fmt(many.mbPerSecond / one.mbPerSecond, 2)}x; quiet p95 ${FLOODS} floods / no flood: ${fmt(percentile(many.reads, 95) / percentile(calm.reads, 95), 2)}x`);
} finally {
  agent.stop();
}
