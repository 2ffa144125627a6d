// A send + screen pair against another machine's agent, over OpenSSH with
// connection sharing: `corral pty send --host` then `corral pty screen
// --host` (two CLI calls, each through the shared ssh connection and the
// remote `corral connect`), against what people do today with tmux over the
// same shared connection: `ssh host tmux send-keys ...; ssh host tmux
// capture-pane -p`. The other machine is a private sshd on 127.0.0.1
// (test/scripts/lib.sh's sshd_private), so the figures are the cost of the
// programs and the ssh channel, not of a network. Prints the median and p95
// of each pair and the ratio, measured interleaved in the same run.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CORRAL, fmt, median, percentile, repoRoot } from "./agent-bench-kit.ts";

const ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 20);
const WARMUP = 3;
const out = (line: string) => process.stdout.write(`${line}\n`);

const root = mkdtempSync(path.join(os.tmpdir(), "corral-bench-remote-"));
const bin = path.join(root, "bin");
const work = path.join(root, "work");
mkdirSync(bin);
mkdirSync(work);
writeFileSync(path.join(bin, "corral"), `#!/bin/sh\nexec ${CORRAL.map((w) => `'${w}'`).join(" ")} "$@"\n`);
chmodSync(path.join(bin, "corral"), 0o755);
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
  CORRAL_STATE_DIR: path.join(root, "state"),
  CORRAL_AGENT_IDLE: "10m",
  SCRIPT_LIB: path.join(repoRoot, "test", "scripts", "lib.sh"),
  SCRIPT_TMP: work,
};
mkdirSync(env.CORRAL_STATE_DIR as string, { mode: 0o700 });

/** Runs bash with lib.sh sourced; its stdout. */
function bash(script: string): string {
  const result = spawnSync("bash", ["-c", `. "$SCRIPT_LIB"\n${script}`], { env, cwd: work, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`bash: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

function run(argv: readonly string[]): string {
  const result = spawnSync(argv[0] as string, argv.slice(1), { env, cwd: work, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${argv.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

function timed(work: () => void): number[] {
  for (let i = 0; i < WARMUP; i++) work();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return times;
}

const setup = bash('sshd_private || exit 3\nprintf "%s\\n" "$CORRAL_SSH" "$SSH_DEST" "$REMOTE_CORRAL" "$SSHD_DIR"');
const [sshCommand, dest, remoteCorral, sshdDir] = setup.trim().split("\n").slice(-4) as [string, string, string, string];
if (setup.startsWith("SKIP")) {
  out(`skipped: ${setup.trim()}`);
  process.exit(0);
}
env.CORRAL_SSH = sshCommand;
env.SSH_DEST = dest;
env.SSHD_DIR = sshdDir;
const host = `${dest}:${remoteCorral}`;
const tmuxSocket = path.join(work, "tmux.sock");
// The same sharing corral uses, on a ControlPath of its own.
const ssh = [...sshCommand.split(" "), "-T", "-o", "BatchMode=yes", "-o", "ControlMaster=auto", "-o", `ControlPath=${path.join(work, "tmux-%C")}`, "-o", "ControlPersist=60s", dest];
try {
  run(["corral", "pty", "open", "--host", host, "--name", "b", "--", "cat"]);
  run([...ssh, `tmux -S ${tmuxSocket} new-session -d -s b -x 80 -y 24 cat`]);
  const viaCorral = timed(() => {
    run(["corral", "pty", "send", "--host", host, "b", "x", "--key", "Enter"]);
    run(["corral", "pty", "screen", "--host", host, "b"]);
  });
  const viaTmux = timed(() => {
    run([...ssh, `tmux -S ${tmuxSocket} send-keys -t b x Enter`]);
    run([...ssh, `tmux -S ${tmuxSocket} capture-pane -p -t b`]);
  });
  const describe = (times: number[]) => `median ${fmt(median(times), 1)} ms, p95 ${fmt(percentile(times, 95), 1)} ms`;
  out(`send+screen pairs over a shared ssh connection, ${ROUNDS} rounds each (after ${WARMUP} warm-up)`);
  out(`  corral pty send/screen --host:        ${describe(viaCorral)}`);
  out(`  ssh host tmux send-keys/capture-pane: ${describe(viaTmux)}`);
  out(`  ratio corral/tmux (medians): ${fmt(median(viaCorral) / median(viaTmux), 2)}`);
} finally {
  spawnSync("bash", ["-c", `. "$SCRIPT_LIB"\ntmux -S ${tmuxSocket} kill-server 2>/dev/null; for c in "${work}"/tmux-*; do [ -S "$c" ] && ssh -F "$SSHD_DIR/ssh_config" -o ControlPath="$c" -O exit "$SSH_DEST" 2>/dev/null; done; sshd_stop`], { env, cwd: work, stdio: "inherit" });
  rmSync(root, { recursive: true, force: true });
}
