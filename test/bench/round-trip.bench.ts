// Round trips over one connection (issue 9): lockstep send + screen pairs
// (each request waits for its reply before the next goes) on an 80x24 `cat`
// session, through one `corral connect` process speaking JSON lines, against
// tmux's control mode (`tmux -C` on a private socket: send-keys +
// capture-pane) in the same run. Prints median and p95 of each, the ratio,
// and per-op medians (list, send, screen) so a change can be placed.
// Aim: a lockstep send+screen pair under 1 ms.
import { type ChildProcess, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { createInterface } from "node:readline";
import { CORRAL, fmt, median, percentile, startAgent, tmuxServer } from "./agent-bench-kit.ts";

const ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 500);
const WARMUP = 50;
const out = (line: string) => process.stdout.write(`${line}\n`);

/** Sends one line, resolves with the next reply line: lockstep. */
function lockstep(child: { stdin: Writable; stdout: Readable }, isEnd: (line: string) => boolean): (line: string) => Promise<void> {
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return async (line) => {
    child.stdin.write(`${line}\n`);
    for (;;) {
      const next = await lines.next();
      if (next.done === true) throw new Error(`the process ended before answering ${line}`);
      if (isEnd(next.value)) return;
    }
  };
}

async function timed(rounds: number, work: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times;
}

const describe = (times: number[]) => `median ${fmt(median(times), 3)} ms, p95 ${fmt(percentile(times, 95), 3)} ms`;

const agent = startAgent("round-trip");
const tmux = tmuxServer("round-trip");
let connect: ChildProcess | undefined;
let control: ChildProcess | undefined;
try {
  const session = agent.cli(["pty", "open", "--name", "rt", "--cols", "80", "--rows", "24", "--", "cat"]).trim();
  const connectProcess = spawn(CORRAL[0] as string, [...CORRAL.slice(1), "connect"], { env: agent.env, stdio: ["pipe", "pipe", "inherit"] });
  connect = connectProcess;
  const ask = lockstep(connectProcess, () => true);
  const send = JSON.stringify({ op: "send", session, text: "x", keys: ["Enter"] });
  const screen = JSON.stringify({ op: "screen", session });
  const list = JSON.stringify({ op: "list" });

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
  const corralPair = async () => {
    await ask(send);
    await ask(screen);
  };

  // Interleaved in blocks so a busy moment of the shared machine weighs on both alike.
  const corralTimes: number[] = [];
  const tmuxTimes: number[] = [];
  const BLOCK = 50;
  for (let done = 0; done < ROUNDS; done += BLOCK) {
    corralTimes.push(...await timed(BLOCK, corralPair));
    tmuxTimes.push(...await timed(BLOCK, tmuxPair));
  }
  const listTimes = await timed(ROUNDS, () => ask(list));
  const sendTimes = await timed(ROUNDS, () => ask(send));
  const screenTimes = await timed(ROUNDS, () => ask(screen));

  out(`lockstep send+screen pair, ${ROUNDS} rounds, 80x24 cat session`);
  out(`  corral connect:                         ${describe(corralTimes)}`);
  out(`  tmux -C (send-keys + capture-pane):     ${describe(tmuxTimes)}`);
  out(`  ratio corral/tmux: median ${fmt(median(corralTimes) / median(tmuxTimes), 2)}x, p95 ${fmt(percentile(corralTimes, 95) / percentile(tmuxTimes, 95), 2)}x (aim: pair under 1 ms)`);
  out(`single ops through corral connect`);
  out(`  list:   ${describe(listTimes)}`);
  out(`  send:   ${describe(sendTimes)}`);
  out(`  screen: ${describe(screenTimes)}`);
} finally {
  connect?.stdin?.end();
  control?.stdin?.end();
  control?.kill();
  tmux.kill();
  agent.stop();
}
