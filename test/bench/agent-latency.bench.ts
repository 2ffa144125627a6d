// (b) per-request latency through one `corral connect` for send+screen,
// against `tmux send-keys` + `tmux capture-pane` as separate calls;
// (c) one `corral pty screen` call against the runtime's bare start-up;
// (f) opening a session and reading its first screen against bare start-up.
// All in the same run, on the same machine, medians of repeated runs.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { CORRAL, bareStartupMs, cpuMs, fmt, median, startAgent, timeMs, tmuxServer } from "./agent-bench-kit.ts";

const ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 200);
const RUNS = Number(process.env.CORRAL_BENCH_RUNS ?? 15);
const out = (line: string) => process.stdout.write(`${line}\n`);

const agent = startAgent("latency");
const tmux = tmuxServer("latency");
try {
  const session = agent.cli(["pty", "open", "--name", "quiet", "--", "cat"]).trim();

  // (b) corral: one connect process, pipelined send + screen per round.
  const child = spawn(CORRAL[0] as string, [...CORRAL.slice(1), "connect"], { env: agent.env, stdio: ["pipe", "pipe", "inherit"] });
  const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const ask = async (lines: string[]) => {
    child.stdin.write(lines.join("\n") + "\n");
    for (let i = 0; i < lines.length; i++) await replies.next();
  };
  const send = JSON.stringify({ op: "send", session, text: "x", keys: ["Enter"] });
  const screen = JSON.stringify({ op: "screen", session });
  await ask([send, screen]);
  const corralRounds: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await ask([send, screen]);
    corralRounds.push(performance.now() - start);
  }
  child.stdin.end();

  // (b) tmux: the same two operations as two client calls.
  tmux.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "cat");
  const tmuxRounds: number[] = [];
  const [tmuxFile, ...tmuxArgs] = tmux.argv() as [string, ...string[]];
  for (let i = 0; i < Math.min(ROUNDS, 60); i++) {
    tmuxRounds.push(timeMs(() => {
      spawnSync(tmuxFile, [...tmuxArgs, "send-keys", "-t", "t", "x", "Enter"]);
      spawnSync(tmuxFile, [...tmuxArgs, "capture-pane", "-p", "-t", "t"]);
    }));
  }
  const corralMs = median(corralRounds);
  const tmuxMs = median(tmuxRounds);
  out(`(b) send+screen per request, median of ${ROUNDS}`);
  out(`  corral connect: ${fmt(corralMs, 2)} ms`);
  out(`  tmux send-keys + capture-pane: ${fmt(tmuxMs, 2)} ms`);
  out(`  ratio tmux/corral: ${fmt(tmuxMs / corralMs)}x lower latency (aim: >= 10x)`);

  // (c) one `corral pty screen` process against bare `node -e 0`, the two
  // interleaved run by run so a busy moment weighs on both alike.
  const [file, ...args] = CORRAL as [string, ...string[]];
  const bareRuns: number[] = [];
  const screenRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bareRuns.push(bareStartupMs(1));
    screenRuns.push(timeMs(() => spawnSync(file, [...args, "pty", "screen", session], { env: agent.env })));
  }
  const bare = median(bareRuns);
  const screenMs = median(screenRuns);
  const bareCpu = median(Array.from({ length: RUNS }, () => cpuMs([process.execPath, "-e", "0"])));
  const screenCpu = median(Array.from({ length: RUNS }, () => cpuMs([file, ...args, "pty", "screen", session], agent.env)));
  out(`(c) one corral pty screen call, median of ${RUNS}`);
  out(`  bare start-up (node -e 0): ${fmt(bare)} ms`);
  out(`  corral pty screen: ${fmt(screenMs)} ms, ${fmt(screenMs - bare)} ms over bare, ratio ${fmt(screenMs / bare, 2)}x (aim: within 30 ms)`);
  out(`  cpu time: bare ${fmt(bareCpu)} ms, corral pty screen ${fmt(screenCpu)} ms, ${fmt(screenCpu - bareCpu)} ms over bare`);

  // (f) open a session and read its first screen: one connect process
  // (open, wait for the first output, screen), and as two CLI calls.
  const firstScreen = [
    JSON.stringify({ op: "open", argv: ["sh", "-c", "echo first-screen; exec cat"] }),
  ];
  const bareAgain: number[] = [];
  const connectRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const name = `f${i}`;
    const lines = [
      firstScreen[0]!.replace('"op":"open"', `"op":"open","name":"${name}"`),
      JSON.stringify({ op: "wait", session: name, text: "first-screen", timeoutMs: 10_000 }),
      JSON.stringify({ op: "screen", session: name }),
    ].join("\n") + "\n";
    bareAgain.push(bareStartupMs(1));
    connectRuns.push(timeMs(() => spawnSync(file, [...args, "connect"], { env: agent.env, input: lines })));
  }
  const connectOpen = median(connectRuns);
  const bareF = median(bareAgain);
  const connectCpu = median(Array.from({ length: RUNS }, (_, i) => {
    const name = `g${i}`;
    const lines = [
      JSON.stringify({ op: "open", name, argv: ["sh", "-c", "echo first-screen; exec cat"] }),
      JSON.stringify({ op: "wait", session: name, text: "first-screen", timeoutMs: 10_000 }),
      JSON.stringify({ op: "screen", session: name }),
    ].join("\n") + "\n";
    return cpuMs([file, ...args, "connect"], agent.env, lines);
  }));
  const twoCalls = median(Array.from({ length: RUNS }, () =>
    timeMs(() => {
      const id = spawnSync(file, [...args, "pty", "open", "--", "sh", "-c", "echo first-screen; exec cat"], { env: agent.env, encoding: "utf8" }).stdout.trim();
      spawnSync(file, [...args, "pty", "wait", id, "--text", "first-screen"], { env: agent.env });
      spawnSync(file, [...args, "pty", "screen", id], { env: agent.env });
    })
  ));
  out(`(f) open a session and read its first screen, median of ${RUNS}`);
  out(`  one corral connect (open, wait, screen): ${fmt(connectOpen)} ms, ${fmt(connectOpen - bareF)} ms over bare (${fmt(bareF)} ms), ratio ${fmt(connectOpen / bareF, 2)}x (aim: within 40 ms)`);
  out(`  cpu time of that connect: ${fmt(connectCpu)} ms, ${fmt(connectCpu - bareCpu)} ms over bare`);
  out(`  three CLI calls (pty open, pty wait, pty screen): ${fmt(twoCalls)} ms`);
} finally {
  tmux.kill();
  agent.stop();
}
