// `pty exec s true`, one command's round trip in a live bash (issue 30):
// through the CLI (a process per step, as a shell script runs it) and
// through one `corral connect` (JSON lines, as an AI agent keeps it open),
// side by side with tmux's idiom for the same step on a private server in
// the same run: `tmux send-keys 'true; tmux wait-for -S done' Enter; tmux
// wait-for done` (two tmux client processes, and no exit status or output).
// Prints medians and p95, the ratios to tmux's, and the CLI's own floor
// (`pty screen`, a request that types and waits for nothing) in the same run.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { CORRAL, fmt, median, percentile, startAgent, tmuxServer } from "./agent-bench-kit.ts";

const CLI_ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 40);
const CONNECT_ROUNDS = CLI_ROUNDS * 5;
const WARMUP = 5;
const out = (line: string) => process.stdout.write(`${line}\n`);
const describe = (times: number[]) => `median ${fmt(median(times), 2)} ms, p95 ${fmt(percentile(times, 95), 2)} ms`;

async function timed(rounds: number, work: () => unknown): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times;
}

// Both shells start from an empty home: neither reads a person's startup files.
const home = mkdtempSync(path.join(os.tmpdir(), "corral-bench-exec-home-"));
const agent = startAgent("exec");
const tmux = tmuxServer("exec");
const env = { ...agent.env, HOME: home };
try {
  const session = agent.cli(["pty", "open", "--env", `HOME=${home}`, "--", "bash"]).trim();
  agent.cli(["pty", "exec", session, "--timeout", "60s", "--", "true"]);

  const cli = await timed(CLI_ROUNDS, () => {
    const r = spawnSync(CORRAL[0] as string, [...CORRAL.slice(1), "pty", "exec", session, "--", "true"], { env });
    if (r.status !== 0) throw new Error(`pty exec: ${r.stderr}`);
  });

  // The CLI's own floor in the same run: a request that types nothing and waits for nothing.
  const floor = await timed(CLI_ROUNDS, () => {
    const r = spawnSync(CORRAL[0] as string, [...CORRAL.slice(1), "pty", "screen", session], { env });
    if (r.status !== 0) throw new Error(`pty screen: ${r.stderr}`);
  });

  const connect = spawn(CORRAL[0] as string, [...CORRAL.slice(1), "connect"], { env, stdio: ["pipe", "pipe", "inherit"] });
  const replies = createInterface({ input: connect.stdout })[Symbol.asyncIterator]();
  const request = `${JSON.stringify({ op: "exec", session, command: "true" })}\n`;
  const viaConnect = await timed(CONNECT_ROUNDS, async () => {
    connect.stdin.write(request);
    const reply = await replies.next();
    if (reply.done === true || !reply.value.includes('"ok":true')) throw new Error(`exec through connect: ${reply.value}`);
  });
  connect.stdin.end();

  tmux.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "env", `HOME=${home}`, "bash", "--norc", "--noprofile");
  const [tmuxFile, ...base] = tmux.argv() as [string, ...string[]];
  const idiom = await timed(CLI_ROUNDS, () => {
    spawnSync(tmuxFile, [...base, "send-keys", "-t", "t", "true; tmux wait-for -S done", "Enter"]);
    const r = spawnSync(tmuxFile, [...base, "wait-for", "done"], { timeout: 30_000 });
    if (r.status !== 0) throw new Error(`tmux wait-for: ${r.stderr}`);
  });

  out(`pty exec s true, ${CLI_ROUNDS} rounds through the CLI, ${CONNECT_ROUNDS} through connect; tmux send-keys + wait-for (${CLI_ROUNDS} rounds)`);
  out(`  corral pty exec (CLI)      ${describe(cli)}`);
  out(`  corral pty screen (CLI floor) ${describe(floor)}`);
  out(`  corral connect {"op":"exec"} ${describe(viaConnect)}`);
  out(`  tmux send-keys + wait-for  ${describe(idiom)}`);
  out(`  ratio CLI / tmux idiom     ${fmt(median(cli) / median(idiom), 2)}`);
  out(`  ratio connect / tmux idiom ${fmt(median(viaConnect) / median(idiom), 2)}`);
  out(`  ratio CLI exec / CLI floor ${fmt(median(cli) / median(floor), 2)}`);
} finally {
  tmux.kill();
  agent.stop();
  rmSync(home, { recursive: true, force: true });
}
