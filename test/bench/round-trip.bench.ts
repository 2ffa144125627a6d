// Round trips over one connection: lockstep send + screen pairs (each
// request waits for its reply before the next goes) on an 80x24 `cat`
// session, through one `corral connect` speaking JSON lines, against tmux's
// control mode (`tmux -C` on a private socket: send-keys + capture-pane) in
// the same run. `corral connect` runs as users run it: the bin (dist/corral,
// the native client, which hands its stdin and stdout to the agent as
// tmux's control client hands its own to the server), and beside it the
// same client relaying them (CORRAL_CONNECT_RELAY=1) and the JavaScript
// CLI's relay (CORRAL_CLIENT=js). Prints median and p95 of each, the ratio,
// the CPU time the agent and the connect process spent per pair (from
// /proc schedstat: steadier than wall time on a loaded machine), and
// per-op medians (list, send, screen) and the pair from this process's own
// socket client (the agent alone, no relay) so a change can be placed.
// Aim: the pair within 2x tmux -C's.
// A/B: CORRAL_BENCH_BASELINE=/path/to/other/dist/corral.mjs adds the same
// pair through another build (its own agent, and its own native client's
// connect where that build has one beside it, else its JavaScript CLI's),
// interleaved in the same blocks, so a change is measured against what it
// replaces.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import path from "node:path";
import { CORRAL, type BenchAgent, cpuNsOf, fmt, median, percentile, repoRoot, startAgent, tmuxServer } from "./agent-bench-kit.ts";

const ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 500);
const BASELINE = process.env.CORRAL_BENCH_BASELINE;
const WARMUP = 50;
/**
 * Pairs each side runs before anything is timed: a fresh agent answers its
 * first thousand requests or so in unoptimised code (3-5x slower), and an
 * agent that serves a script is long past them.
 */
const AGENT_WARMUP = Number(process.env.CORRAL_BENCH_AGENT_WARMUP ?? 3000);
const out = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Sends one line, resolves once a reply line `isEnd` accepts has come: lockstep.
 * A plain `data` handler splitting lines, not readline's async iterator: the
 * driver shares the 2 cores with both sides, and the iterator's promise
 * machinery cost it several times what it measures (each side alike, but the
 * side with more processes in its chain waits more for a core).
 */
function lockstep(child: { stdin: Writable; stdout: Readable }, isEnd: (line: string) => boolean): (line: string) => Promise<void> {
  let carry = "";
  let waiting: { resolve: () => void; reject: (error: Error) => void; line: string } | undefined;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      const line = carry + text.slice(start, end);
      carry = "";
      start = end + 1;
      if (waiting !== undefined && isEnd(line)) {
        const done = waiting;
        waiting = undefined;
        done.resolve();
      }
    }
    carry += text.slice(start);
  });
  child.stdout.on("end", () => waiting?.reject(new Error(`the process ended before answering ${waiting.line}`)));
  return (line) => new Promise<void>((resolve, reject) => {
    waiting = { resolve, reject, line };
    child.stdin.write(`${line}\n`);
  });
}

async function timed(rounds: number, work: () => Promise<void>, warmup = WARMUP): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times;
}

const describe = (times: number[]) => `median ${fmt(median(times), 3)} ms, p95 ${fmt(percentile(times, 95), 3)} ms`;

/** One build's side: its agent, a `cat` session and a `corral connect` driven in lockstep. */
interface Side {
  readonly label: string;
  readonly agent: BenchAgent;
  readonly connect: ChildProcess;
  readonly ask: (line: string) => Promise<void>;
  readonly session: string;
  readonly times: number[];
  /** CPU ns of the agent and of connect spent in the timed pairs. */
  agentCpu: number;
  connectCpu: number;
}

/** The bin as installed: the native client (falls back to the JavaScript CLI where it was not built). */
const BIN = path.join(repoRoot, "dist", "corral");

/** `agent`: another side's agent to share (the JavaScript relay beside the native client); `bin`: the native client to run. */
function startSide(label: string, entry: string, door: "native" | "relayed" | "js", shared?: { agent: BenchAgent; session: string }, bin = BIN): Side {
  const agent = shared?.agent ?? startAgent(`round-trip-${label}`, entry);
  const session = shared?.session ?? agent.cli(["pty", "open", "--name", "rt", "--cols", "80", "--rows", "24", "--", "cat"]).trim();
  const relay = door === "relayed" ? { CORRAL_CONNECT_RELAY: "1" } : {};
  const connect = door !== "js"
    ? spawn(bin, ["connect"], { env: { ...agent.env, ...relay, CORRAL_CLIENT: "native" }, stdio: ["pipe", "pipe", "inherit"] })
    : spawn(CORRAL[0] as string, [entry, "connect"], { env: agent.env, stdio: ["pipe", "pipe", "inherit"] });
  return { label, agent, connect, ask: lockstep(connect as ChildProcess & { stdin: Writable; stdout: Readable }, () => true), session, times: [], agentCpu: 0, connectCpu: 0 };
}

const sides: Side[] = [];
const tmux = tmuxServer("round-trip");
let control: ChildProcess | undefined;
try {
  const native = startSide("corral (native client)", CORRAL[1] as string, "native");
  sides.push(native);
  sides.push(startSide("corral (JavaScript CLI)", CORRAL[1] as string, "js", native));
  sides.push(startSide("corral (native client, relayed)", CORRAL[1] as string, "relayed", native));
  if (BASELINE !== undefined) {
    const baselineBin = path.join(path.dirname(BASELINE), "corral");
    sides.push(existsSync(baselineBin) ? startSide("baseline", BASELINE, "native", undefined, baselineBin) : startSide("baseline", BASELINE, "js"));
  }
  const main = native;
  const pairOf = (side: Side) => {
    const send = JSON.stringify({ op: "send", session: side.session, text: "x", keys: ["Enter"] });
    const screen = JSON.stringify({ op: "screen", session: side.session });
    return async () => {
      await side.ask(send);
      await side.ask(screen);
    };
  };

  // tmux control mode: each command's output comes between %begin and %end
  // (or %error); notifications (%output ...) in between are skipped.
  tmux.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "cat");
  const [tmuxFile, ...tmuxArgs] = tmux.argv("-C", "attach-session", "-t", "t") as [string, ...string[]];
  const controlProcess = spawn(tmuxFile, tmuxArgs, { stdio: ["pipe", "pipe", "inherit"] });
  control = controlProcess;
  const tmuxAsk = lockstep(controlProcess, (line) => line.startsWith("%end ") || line.startsWith("%error "));
  const tmuxPair = async () => {
    await tmuxAsk("send-keys -t t x Enter");
    await tmuxAsk("capture-pane -p -t t");
  };

  for (const side of sides) {
    const pair = pairOf(side);
    for (let i = 0; i < AGENT_WARMUP; i++) await pair();
  }
  for (let i = 0; i < AGENT_WARMUP; i++) await tmuxPair();
  // Interleaved in blocks so a busy moment of the shared machine weighs on all alike.
  const tmuxTimes: number[] = [];
  const BLOCK = 50;
  for (let done = 0; done < ROUNDS; done += BLOCK) {
    for (const side of sides) {
      const pair = pairOf(side);
      for (let i = 0; i < WARMUP; i++) await pair();
      const agentBefore = cpuNsOf(side.agent.pid);
      const connectBefore = cpuNsOf(side.connect.pid as number);
      side.times.push(...await timed(BLOCK, pair, 0));
      side.agentCpu += cpuNsOf(side.agent.pid) - agentBefore;
      side.connectCpu += cpuNsOf(side.connect.pid as number) - connectBefore;
    }
    tmuxTimes.push(...await timed(BLOCK, tmuxPair));
  }
  // The agent alone: the same pair from this process's own client of the
  // socket, framed (what a program speaking the agent protocol pays).
  const client = await main.agent.client();
  const direct = await timed(ROUNDS, async () => {
    await client.send({ op: "send", session: main.session, text: "x", keys: ["Enter"] });
    await client.send({ op: "screen", session: main.session });
  });
  client.close();
  const list = JSON.stringify({ op: "list" });
  const send = JSON.stringify({ op: "send", session: main.session, text: "x", keys: ["Enter"] });
  const screen = JSON.stringify({ op: "screen", session: main.session });
  // The floor of any pair over connect: two requests whose answers cost the agent next to
  // nothing (the job table, empty here), so what is left is the relay, the agent's event loop,
  // its framing and JSON. Placed beside tmux's whole pair, it says how much of the ratio is
  // the send and the screen themselves.
  const jobs = JSON.stringify({ op: "jobs" });
  const floorTimes = await timed(ROUNDS, async () => {
    await main.ask(jobs);
    await main.ask(jobs);
  });
  const listTimes = await timed(ROUNDS, () => main.ask(list));
  const sendTimes = await timed(ROUNDS, () => main.ask(send));
  const screenTimes = await timed(ROUNDS, () => main.ask(screen));

  out(`lockstep send+screen pair, ${ROUNDS} rounds after ${AGENT_WARMUP} to warm up, 80x24 cat session`);
  for (const side of sides) {
    out(`  ${`${side.label} connect:`.padEnd(40)} ${describe(side.times)}`);
    out(`  ${"".padEnd(40)} CPU a pair: agent ${fmt(side.agentCpu / side.times.length / 1000, 0)} µs, connect ${fmt(side.connectCpu / side.times.length / 1000, 0)} µs`);
  }
  out(`  ${"tmux -C (send-keys + capture-pane):".padEnd(40)} ${describe(tmuxTimes)}`);
  out(`  ratio corral/tmux: median ${fmt(median(main.times) / median(tmuxTimes), 2)}x, p95 ${fmt(percentile(main.times, 95) / percentile(tmuxTimes, 95), 2)}x (aim: within 2x)`);
  const js = sides[1] as Side;
  out(`  ratio JavaScript CLI's connect/tmux: median ${fmt(median(js.times) / median(tmuxTimes), 2)}x`);
  const relayed = sides[2] as Side;
  out(`  ratio relayed native client's connect/tmux: median ${fmt(median(relayed.times) / median(tmuxTimes), 2)}x`);
  const baseline = sides[3];
  if (baseline !== undefined) {
    out(`  ratio corral/baseline: median ${fmt(median(main.times) / median(baseline.times), 2)}x, p95 ${fmt(percentile(main.times, 95) / percentile(baseline.times, 95), 2)}x`);
  }
  out(`  ${"agent alone (this process's client):".padEnd(40)} ${describe(direct)}`);
  out(`  ${"floor: two jobs requests (no work):".padEnd(40)} ${describe(floorTimes)}, ${fmt(median(floorTimes) / median(tmuxTimes), 2)}x tmux's whole pair`);
  out(`single ops through corral connect (native client)`);
  out(`  list:   ${describe(listTimes)}`);
  out(`  send:   ${describe(sendTimes)}`);
  out(`  screen: ${describe(screenTimes)}`);
} finally {
  control?.stdin?.end();
  control?.kill();
  tmux.kill();
  for (const side of sides) side.connect.stdin?.end();
  for (const agent of new Set(sides.map((side) => side.agent))) agent.stop();
}
