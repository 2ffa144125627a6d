// The native client's door against tmux's own client, side by side in one
// run on a private tmux server: what a script that drives a terminal pays
// per call. Rows: a `pty send` + `pty screen` pair through the command
// line; a session opened and closed (`pty open` + `pty close` against tmux's
// new-session + kill-session); single served calls (`jobs`, `pty wait` on text already shown,
// `--version`) against `tmux display-message -p`; a script of STEPS steps
// (send a line, wait for its echo, read the screen); and over one
// connection (`corral connect` through the bin), send+wait against
// send+poll on bash and vim (a wait should fire no later than polling sees
// the text), with tmux's control mode polling the same programs beside. Aims: the pair within 2x
// tmux's, each served call within 3x display-message and under 10 ms, the
// script under 3x tmux's. The JavaScript door (CORRAL_CLIENT=js) is shown
// beside the native one. `npm run bench -- native-client`. (vim runs with -n:
// no swap file left in the directory the bench ran from.)
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fmt, median, repoRoot, startAgent, timeMs, tmuxServer } from "./agent-bench-kit.ts";

const ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 60);
const STEPS = Number(process.env.CORRAL_BENCH_STEPS ?? 1000);
const out = (line: string) => process.stdout.write(`${line}\n`);
const NATIVE = path.join(repoRoot, "dist", "corral");

const agent = startAgent("native-client");
const tmux = tmuxServer("native-client");
const scratch = mkdtempSync(path.join(os.tmpdir(), "corral-bench-native-"));
let connect: ChildProcess | undefined;
let control: ChildProcess | undefined;
try {
  const env = { ...agent.env, PS1: "$ " };
  const run = (argv: readonly string[], extra: Record<string, string> = {}) => {
    const result = spawnSync(argv[0] as string, argv.slice(1), { env: { ...env, ...extra }, encoding: "utf8" });
    if (result.status !== 0 && result.status !== 1) throw new Error(`${argv.join(" ")}: status ${result.status}: ${result.stderr}`);
    return result.stdout;
  };
  // The same bash on both sides: tmux's has no prompt hook, so corral's is opened without one
  // (a hooked bash runs its hook at every prompt, about 0.3-0.5 ms a command here).
  run([NATIVE, "pty", "open", "--name", "b", "--cols", "80", "--rows", "24", "--no-shell-integration", "--", "bash", "--norc", "--noprofile"]);
  tmux.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "env", "PS1=$ ", "bash", "--norc", "--noprofile");
  run([NATIVE, "pty", "send", "b", "echo shown", "--key", "Enter", "--wait-text", "shown"]);

  /** Median ms of `work` over ROUNDS, the sides interleaved so both see the same moments of the machine. */
  const sideBySide = (rows: readonly (readonly [string, () => void])[]) => {
    const times = rows.map(() => [] as number[]);
    for (let i = 0; i < ROUNDS + 5; i++) {
      rows.forEach(([, work], k) => {
        const ms = timeMs(work);
        if (i >= 5) times[k]!.push(ms);
      });
    }
    return times.map(median);
  };
  const corralCall = (door: "native" | "js", ...args: string[]) => () => run([NATIVE, ...args], { CORRAL_CLIENT: door });
  const tmuxCall = (...args: string[]) => () => run(tmux.argv(...args));

  out(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((l) => fmt(l, 2)).join(" ")}; ${ROUNDS} rounds each, medians`);
  const [display] = sideBySide([["tmux display-message -p", tmuxCall("display-message", "-p", "x")]]);
  const pair = sideBySide([
    ["tmux send-keys + capture-pane", () => (tmuxCall("send-keys", "-t", "t", "x")(), tmuxCall("capture-pane", "-p", "-t", "t")())],
    ["corral pty send + pty screen (native)", () => (corralCall("native", "pty", "send", "b", "x")(), corralCall("native", "pty", "screen", "b")())],
    ["corral pty send + pty screen (js)", () => (corralCall("js", "pty", "send", "b", "x")(), corralCall("js", "pty", "screen", "b")())],
  ]);
  out(`\n| pair | ms | x tmux |\n|---|---|---|`);
  out(`| tmux send-keys + capture-pane | ${fmt(pair[0]!, 2)} | 1.00 |`);
  out(`| corral send + screen, native client | ${fmt(pair[1]!, 2)} | ${fmt(pair[1]! / pair[0]!, 2)} (aim <= 2) |`);
  out(`| corral send + screen, JavaScript CLI | ${fmt(pair[2]!, 2)} | ${fmt(pair[2]! / pair[0]!, 2)} |`);

  // A session opened and closed: `pty open` is served once an agent runs, like tmux's new-session.
  const openClose = sideBySide([
    ["tmux new-session + kill-session", () => (tmuxCall("new-session", "-d", "-s", "o", "cat")(), tmuxCall("kill-session", "-t", "o")())],
    ["corral pty open + pty close (native)", () => (corralCall("native", "pty", "open", "--name", "o", "--", "cat")(), corralCall("native", "pty", "close", "o")())],
    ["corral pty open + pty close (js)", () => (corralCall("js", "pty", "open", "--name", "o", "--", "cat")(), corralCall("js", "pty", "close", "o")())],
  ]);
  out(`\n| open + close a session | ms | x tmux |\n|---|---|---|`);
  out(`| tmux new-session + kill-session | ${fmt(openClose[0]!, 2)} | 1.00 |`);
  out(`| corral pty open + pty close, native client | ${fmt(openClose[1]!, 2)} | ${fmt(openClose[1]! / openClose[0]!, 2)} |`);
  out(`| corral pty open + pty close, JavaScript CLI | ${fmt(openClose[2]!, 2)} | ${fmt(openClose[2]! / openClose[0]!, 2)} |`);

  const calls: [string, string[]][] = [
    ["jobs", ["jobs"]],
    ["pty wait --text (already shown)", ["pty", "wait", "b", "--text", "shown"]],
    ["--version", ["--version"]],
    ["pty screen", ["pty", "screen", "b"]],
  ];
  out(`\n| served call | native ms | x display-message (${fmt(display!, 2)} ms) | JavaScript CLI ms |\n|---|---|---|---|`);
  for (const [label, args] of calls) {
    const [native, js] = sideBySide([["native", corralCall("native", ...args)], ["js", corralCall("js", ...args)]]);
    out(`| ${label} | ${fmt(native!, 2)} | ${fmt(native! / display!, 2)} (aim <= 3, < 10 ms) | ${fmt(js!, 1)} |`);
  }

  // The script: each step sends a line, waits for its echo, reads the screen.
  const corralScript = path.join(scratch, "corral-steps.sh");
  writeFileSync(corralScript, `for i in $(seq ${STEPS}); do
  "${NATIVE}" pty send b "echo =$i=" --key Enter >/dev/null
  "${NATIVE}" pty wait b --text "=$i=" >/dev/null
  "${NATIVE}" pty screen b >/dev/null
done\n`);
  const tmuxScript = path.join(scratch, "tmux-steps.sh");
  const t = tmux.argv().join(" ");
  writeFileSync(tmuxScript, `for i in $(seq ${STEPS}); do
  ${t} send-keys -t t "echo =$i=" Enter
  until ${t} capture-pane -p -t t | grep -q "=$i="; do :; done
  ${t} capture-pane -p -t t >/dev/null
done\n`);
  const scriptMs = (file: string) => timeMs(() => spawnSync("bash", [file], { env: { ...env, CORRAL_CLIENT: "native" }, stdio: "ignore" }));
  const tmuxSteps = scriptMs(tmuxScript);
  const corralSteps = scriptMs(corralScript);
  out(`\n${STEPS}-step script (send, wait for the echo, screen): tmux ${fmt(tmuxSteps / 1000, 2)} s, corral ${fmt(corralSteps / 1000, 2)} s: ${fmt(corralSteps / tmuxSteps, 2)}x (aim < 3)`);

  // Over one connection: does a wait fire when polling would see the text?
  connect = spawn(NATIVE, ["connect"], { env: { ...env, CORRAL_CLIENT: "native" }, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: connect.stdout! })[Symbol.asyncIterator]();
  const ask = async (request: object) => {
    connect!.stdin!.write(`${JSON.stringify(request)}\n`);
    const next = await lines.next();
    if (next.done === true) throw new Error("connect ended");
    return JSON.parse(next.value) as { ok: boolean; screen?: { lines: string[] } };
  };
  await ask({ op: "open", argv: ["vim", "-u", "NONE", "-N", "-n"], name: "v", cols: 80, rows: 24 });
  await ask({ op: "wait", session: "v", ready: true, timeoutMs: 10_000 });
  const waitVsPoll = async (session: string, line: (i: number) => string, keys: string[]) => {
    const waits: number[] = [];
    const polls: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const token = `w${i}x`;
      let start = performance.now();
      await ask({ op: "send", session, text: line(i).replace("TOKEN", token), keys, wait: { text: [token], timeoutMs: 10_000 } });
      waits.push(performance.now() - start);
      const poll = `p${i}x`;
      start = performance.now();
      await ask({ op: "send", session, text: line(i).replace("TOKEN", poll), keys });
      for (;;) {
        const reply = await ask({ op: "screen", session });
        if (reply.screen?.lines.some((row) => row.includes(poll)) === true) break;
      }
      polls.push(performance.now() - start);
    }
    return [median(waits), median(polls)] as const;
  };
  // tmux's control mode, the same programs: send-keys, then capture-pane until the text is there.
  tmux.tmux("new-session", "-d", "-s", "tv", "-x", "80", "-y", "24", "vim", "-u", "NONE", "-N", "-n");
  const [tmuxFile, ...tmuxArgs] = tmux.argv("-C", "attach-session", "-t", "t") as [string, ...string[]];
  control = spawn(tmuxFile, tmuxArgs, { stdio: ["pipe", "pipe", "inherit"] });
  const controlLines = createInterface({ input: control.stdout! })[Symbol.asyncIterator]();
  /** One control-mode command; the lines of its output (between %begin and %end). */
  const tmuxAsk = async (command: string): Promise<string[]> => {
    control!.stdin!.write(`${command}\n`);
    const got: string[] = [];
    let inside = false;
    for (;;) {
      const next = await controlLines.next();
      if (next.done === true) throw new Error("tmux -C ended");
      const line = next.value as string;
      if (line.startsWith("%begin ")) inside = true;
      else if (line.startsWith("%end ") || line.startsWith("%error ")) {
        if (inside) return got;
      } else if (inside) got.push(line);
    }
  };
  const tmuxPoll = async (target: string, line: string, key: string) => {
    const polls: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const token = `t${i}x`;
      const start = performance.now();
      await tmuxAsk(`send-keys -t ${target} "${line.replace("TOKEN", token)}" ${key}`);
      while (!(await tmuxAsk(`capture-pane -p -t ${target}`)).some((row) => row.includes(token)));
      polls.push(performance.now() - start);
    }
    return median(polls);
  };
  const [bashWait, bashPoll] = await waitVsPoll("b", () => "echo TOKEN", ["Enter"]);
  const [vimWait, vimPoll] = await waitVsPoll("v", () => "oTOKEN", ["Escape"]);
  const tmuxBash = await tmuxPoll("t", "echo TOKEN", "Enter");
  const tmuxVim = await tmuxPoll("tv", "oTOKEN", "Escape");
  out(`\nover one connection (corral connect through the bin), send+wait vs send+poll, and tmux -C's send+poll (median ms; aim: wait <= poll):`);
  out(`| program | corral send+wait | corral send+poll | tmux -C send+poll |\n|---|---|---|---|`);
  out(`| bash | ${fmt(bashWait, 2)} | ${fmt(bashPoll, 2)} | ${fmt(tmuxBash, 2)} |`);
  out(`| vim | ${fmt(vimWait, 2)} | ${fmt(vimPoll, 2)} | ${fmt(tmuxVim, 2)} |`);
  out(`(the lockstep send+screen pair against tmux -C is round-trip.bench.ts)`);
} finally {
  connect?.kill();
  control?.kill();
  tmux.kill();
  agent.stop();
  rmSync(scratch, { recursive: true, force: true });
}
