// (e) agent memory per idle 80x24 session with 100 sessions open, against
// tmux holding 100 idle windows in the same run; and the bound: a session
// running `yes` for 30 s must not grow the agent's memory past a fixed
// bound after warm-up (the emulator pauses the PTY when it falls behind).
import { fmt, rssOf, startAgent, tmuxServer } from "./agent-bench-kit.ts";

const SESSIONS = Number(process.env.CORRAL_BENCH_SESSIONS ?? 100);
const YES_SECONDS = Number(process.env.CORRAL_BENCH_YES_SECONDS ?? 30);
/** Growth after warm-up that fails the bench: far above what bounded buffers need. */
const YES_BOUND_MB = 64;
const MB = 1048576;
const out = (line: string) => process.stdout.write(`${line}\n`);
/** Long enough for idle screens to drop their emulators (lib/pty: 1.5 s idle) and the heap to settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 4000));

let failed = false;
const agent = startAgent("memory");
try {
  const client = await agent.client();
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  // One session first, so code and emulator are loaded before the baseline.
  const warm = await client.call({ op: "open", argv: ["cat"], env });
  await client.call({ op: "screen", session: warm.session.id });
  await settle();
  const before = agent.rssBytes();
  const heapBefore = (await client.call({ op: "agent-status" })).memory.heapUsed;
  const ids: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    ids.push((await client.call({ op: "open", argv: ["cat"], env, cols: 80, rows: 24 })).session.id);
  }
  await settle();
  const unread = agent.rssBytes();
  // Then every screen read once (the emulator built), and left idle again.
  for (const session of ids) await client.call({ op: "screen", session });
  await settle();
  const after = agent.rssBytes();
  const heapAfter = (await client.call({ op: "agent-status" })).memory.heapUsed;
  const perSession = (after - before) / SESSIONS / MB;

  const tmux = tmuxServer("memory");
  let tmuxPer = NaN;
  try {
    tmux.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "cat");
    const tmuxBefore = rssOf(tmux.serverPid());
    for (let i = 0; i < SESSIONS; i++) tmux.tmux("new-session", "-d", "-s", `s${i}`, "-x", "80", "-y", "24", "cat");
    tmuxPer = (rssOf(tmux.serverPid()) - tmuxBefore) / SESSIONS / MB;
  } finally {
    tmux.kill();
  }
  out(`(e) memory per idle 80x24 session, ${SESSIONS} sessions`);
  out(`  corral agent, sessions never read: ${fmt(before / MB)} MB -> ${fmt(unread / MB)} MB, ${fmt((unread - before) / SESSIONS / MB, 3)} MB per session (aim: <= 0.1)`);
  out(`  corral agent, each screen read once then idle: -> ${fmt(after / MB)} MB, ${fmt(perSession, 3)} MB per session (RSS keeps the peak)`);
  out(`  agent JS heap: ${fmt((heapAfter - heapBefore) / SESSIONS / MB, 3)} MB per session (garbage not yet collected included)`);
  out(`  tmux server: ${fmt(tmuxPer, 3)} MB per session; ratio corral/tmux ${fmt((unread - before) / SESSIONS / MB / tmuxPer, 1)}x never read, ${fmt(perSession / tmuxPer, 1)}x read once`);
  for (const s of (await client.call({ op: "list" })).sessions) {
    if (s.alive) await client.call({ op: "close", session: s.id, force: true });
  }

  // The `yes` bound.
  const yes = await client.call({ op: "open", argv: ["yes"], env });
  const samples: number[] = [];
  const started = Date.now();
  while (Date.now() - started < YES_SECONDS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    samples.push(agent.rssBytes());
  }
  const { screen } = await client.call({ op: "screen", session: yes.session.id });
  await client.call({ op: "close", session: yes.session.id, force: true });
  client.close();
  const warmUp = samples[Math.min(4, samples.length - 1)] ?? 0;
  const peak = Math.max(...samples);
  const growth = (peak - warmUp) / MB;
  out(`yes for ${YES_SECONDS} s: agent rss after 5 s ${fmt(warmUp / MB)} MB, peak ${fmt(peak / MB)} MB, growth after warm-up ${fmt(growth)} MB (bound ${YES_BOUND_MB} MB)`);
  out(`  rss every 5 s (MB): ${samples.filter((_, i) => i % 5 === 4).map((b) => fmt(b / MB, 0)).join(" ")}`);
  out(`  last screen row: ${JSON.stringify(screen.lines[screen.lines.length - 2])}`);
  if (growth > YES_BOUND_MB) {
    out("  FAIL: memory grew past the bound");
    failed = true;
  }
} finally {
  agent.stop();
}
process.exitCode = failed ? 1 : 0;
