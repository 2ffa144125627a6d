// (a) Bytes per second from `cat` of a 100 MB file through a session into
// the screen, against tmux doing the same in the same run. corral's time
// ends when the exit is reported, which happens only after every byte was
// parsed by the emulator; tmux's when `wait-for` fires after cat ends.
import { writeFileSync, mkdtempSync, rmSync, openSync, writeSync, closeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { startAgent, tmuxServer, fmt } from "./agent-bench-kit.ts";

const MB = Number(process.env.CORRAL_BENCH_MB ?? 100);
const dir = mkdtempSync(path.join(os.tmpdir(), "corral-bench-cat-"));
const file = path.join(dir, "data.txt");
{
  // Printable lines of 79 characters: what a log or a build prints.
  const line = (i: number) => `${String(i).padStart(9, "0")} ${"abcdefghijklmnopqrstuvwxyz0123456789".repeat(2).slice(0, 68)}\n`;
  const fd = openSync(file, "w");
  let written = 0;
  for (let i = 0; written < MB * 1048576; i += 1000) {
    let chunk = "";
    for (let j = 0; j < 1000; j++) chunk += line(i + j);
    writeSync(fd, chunk);
    written += chunk.length;
  }
  closeSync(fd);
}
const bytes = MB * 1048576;
writeFileSync(path.join(dir, "done"), "");

const agent = startAgent("cat");
let corralMs = NaN;
try {
  const client = await agent.client();
  const start = performance.now();
  const opened = await client.call({ op: "open", argv: ["cat", file], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, cwd: dir });
  await client.call({ op: "wait", session: opened.session.id, exit: true, timeoutMs: 600_000 });
  const { screen } = await client.call({ op: "screen", session: opened.session.id });
  corralMs = performance.now() - start;
  if (!screen.lines.some((row) => row.startsWith("0"))) throw new Error("the last screen shows no data line");
  client.close();
} finally {
  agent.stop();
}

const tmux = tmuxServer("cat");
let tmuxMs = NaN;
try {
  const start = performance.now();
  tmux.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", `cat '${file}'; tmux -L ${tmux.socket} wait-for -S cat-done; sleep 60`);
  spawnSync(tmux.argv("wait-for", "cat-done")[0] as string, tmux.argv("wait-for", "cat-done").slice(1));
  tmux.tmux("capture-pane", "-p", "-t", "t");
  tmuxMs = performance.now() - start;
} finally {
  tmux.kill();
  rmSync(dir, { recursive: true, force: true });
}

const corralRate = bytes / 1048576 / (corralMs / 1000);
const tmuxRate = bytes / 1048576 / (tmuxMs / 1000);
process.stdout.write(`cat ${MB} MB through a session into the screen\n`);
process.stdout.write(`  corral: ${fmt(corralMs / 1000, 2)} s, ${fmt(corralRate)} MB/s\n`);
process.stdout.write(`  tmux:   ${fmt(tmuxMs / 1000, 2)} s, ${fmt(tmuxRate)} MB/s\n`);
process.stdout.write(`  ratio corral/tmux throughput: ${fmt(corralRate / tmuxRate, 2)}x (aim: > 1)\n`);
