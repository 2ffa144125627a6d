// What the default history (2000 lines above the screen, as tmux keeps)
// costs per session, against no history in the same run, and what tmux pays
// for the same panes. Idle: a shell prompt whose screen was read (the
// emulator built). Busy: a session that printed 10000 lines, so the
// history is full and the emulator is kept. Also the cost of parsing a
// flood with the history (scroll skipping must keep more lines).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Screen } from "../../lib/pty/screen.ts";
import { DEFAULT_SCROLLBACK } from "../../lib/pty/screen-size.ts";
import { fmt, rssOf, tmuxServer } from "./agent-bench-kit.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const COUNT = 20;
const KB = 1024;
const out = (line: string) => process.stdout.write(`${line}\n`);

function liveBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const seq = (n: number): Uint8Array => {
  let text = "";
  for (let i = 1; i <= n; i++) text += `${i}\r\n`;
  return new TextEncoder().encode(text);
};

async function screens(scrollback: number, bytes: Uint8Array): Promise<{ perSession: number; screens: Screen[] }> {
  const base = liveBytes();
  const made: Screen[] = [];
  for (let i = 0; i < COUNT; i++) {
    const screen = await Screen.create({ cols: 80, rows: 24, scrollback, onReply: () => {}, onPressure: () => {} });
    screen.feed(bytes);
    await screen.settled();
    screen.grid();
    made.push(screen);
  }
  return { perSession: (liveBytes() - base) / COUNT, screens: made };
}

async function cost(scrollback: number, bytes: Uint8Array): Promise<number> {
  const { perSession, screens: made } = await screens(scrollback, bytes);
  for (const s of made) s.dispose();
  return perSession;
}

// Warm up: code loaded, the width table built.
await cost(0, seq(10));
const prompt = new TextEncoder().encode("$ ");
const busy = seq(10_000);
const idle0 = await cost(0, prompt);
const idleH = await cost(DEFAULT_SCROLLBACK, prompt);
const busy0 = await cost(0, busy);
const busyH = await cost(DEFAULT_SCROLLBACK, busy);
out(`memory per 80x24 session (heap + external, ${COUNT} screens, emulator built):`);
out(`  idle prompt: scrollback 0 ${fmt(idle0 / KB)} KB, ${DEFAULT_SCROLLBACK} ${fmt(idleH / KB)} KB (ratio ${fmt(idleH / idle0, 2)}x)`);
out(`  busy (10000 lines printed): scrollback 0 ${fmt(busy0 / KB)} KB, ${DEFAULT_SCROLLBACK} ${fmt(busyH / KB)} KB (ratio ${fmt(busyH / busy0, 2)}x)`);

const flood = seq(400_000);
async function parseMs(scrollback: number): Promise<number> {
  const screen = await Screen.create({ cols: 80, rows: 24, scrollback, onReply: () => {}, onPressure: () => {} });
  const started = performance.now();
  for (let at = 0; at < flood.length; at += 65536) screen.feed(flood.subarray(at, at + 65536));
  await screen.settled();
  screen.dispose();
  return performance.now() - started;
}
const best = async (scrollback: number) => Math.min(...[await parseMs(scrollback), await parseMs(scrollback), await parseMs(scrollback)]);
const flood0 = await best(0);
const floodH = await best(DEFAULT_SCROLLBACK);
out(`parsing seq 1 400000 (${fmt(flood.length / 1048576)} MB), best of 3: scrollback 0 ${fmt(flood0, 0)} ms, ${DEFAULT_SCROLLBACK} ${fmt(floodH, 0)} ms (ratio ${fmt(floodH / flood0, 2)}x)`);

const tmux = tmuxServer("history");
try {
  tmux.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "cat");
  tmux.tmux("set", "-g", "history-limit", String(DEFAULT_SCROLLBACK)); // for the panes made after it
  const before = rssOf(tmux.serverPid());
  for (let i = 0; i < COUNT; i++) tmux.tmux("new-session", "-d", "-s", `i${i}`, "-x", "80", "-y", "24", "cat");
  const afterIdle = rssOf(tmux.serverPid());
  for (let i = 0; i < COUNT; i++) tmux.tmux("new-session", "-d", "-s", `b${i}`, "-x", "80", "-y", "24", "seq 1 10000; exec cat");
  // Every pane has printed all of it when its history holds 2000 lines.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const sizes = tmux.tmux("list-panes", "-a", "-F", "#{session_name} #{history_size}").trim().split("\n");
    if (sizes.filter((l) => l.startsWith("b") && l.endsWith(` ${DEFAULT_SCROLLBACK}`)).length === COUNT) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const afterBusy = rssOf(tmux.serverPid());
  out(`tmux server RSS per pane, history-limit ${DEFAULT_SCROLLBACK}: idle ${fmt((afterIdle - before) / COUNT / KB)} KB, busy ${fmt((afterBusy - afterIdle) / COUNT / KB)} KB`);
} finally {
  tmux.kill();
}
