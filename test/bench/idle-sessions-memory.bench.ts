// Memory of many idle sessions at default settings (80x24, scrollback 2000):
// N sessions (1,000 by default) of `sleep` opened through one `corral
// connect`, then the agent's resident memory and that of the guardians (one
// per session) read from /proc, against the agent before any session (the
// baseline, same run). The screen budget charges what screens hold, so all N
// open; each idle screen drops its emulator after a moment, which is what
// lets a thousand fit. test/scripts/pty-many-idle-sessions.sh proves 150 in
// the suite.
// Measured 2026-12-05 on the 2-core dev machine (shared, loaded): 1,000 opened
// in 21.6 s; agent RSS 56 MiB with none, 105 MiB with 1,000 (50 KiB a
// session); the 1,000 guardians 107 MiB PSS in all (109 KiB each).
// Usage: npm run bench -- idle-sessions-memory   (CORRAL_BENCH_SESSIONS=N)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corralCommand } from "../support/corral-cli.ts";

const N = Number(process.env.CORRAL_BENCH_SESSIONS ?? 1000);
const MIB = 1024 * 1024;
const dir = mkdtempSync(path.join(os.tmpdir(), "crl-idle-"));
const env = { ...process.env, CORRAL_STATE_DIR: path.join(dir, "s"), CORRAL_SOCKET: "" };
const [bin, ...prefix] = corralCommand() as [string, ...string[]];
const corral = (args: string[], input?: string) => {
  const r = spawnSync(bin, [...prefix, ...args], { env, input, encoding: "utf8", maxBuffer: 64 * MIB });
  if (r.status !== 0) throw new Error(`corral ${args.join(" ")} exited ${String(r.status)}: ${r.stderr}`);
  return r.stdout;
};
const rss = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
/** Proportional set size: shared pages (libc, the binary) split among their users; what N guardians really cost. */
const pss = (pid: number) => {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};
const childrenOf = (parent: number) => readdirSync("/proc").filter((p) => /^\d+$/.test(p)).map(Number).filter((pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
  } catch {
    return false;
  }
});

try {
  corral(["agent", "start"]);
  const agent = Number(readFileSync(path.join(dir, "s", "agent.pid"), "utf8"));
  const before = rss(agent);
  const opens = Array.from({ length: N }, (_, i) => JSON.stringify({ op: "open", argv: ["sleep", "3600"], name: `idle${i}` })).join("\n") + "\n";
  const started = Date.now();
  const replies = corral(["connect"], opens).trim().split("\n").map((l) => JSON.parse(l) as { ok: boolean; error?: { message: string } });
  const refused = replies.filter((r) => !r.ok);
  const openSeconds = (Date.now() - started) / 1000;
  // Idle screens drop their emulators after 1.5 s without activity.
  spawnSync("sleep", ["3"]);
  const after = rss(agent);
  const guardians = childrenOf(agent);
  const guardianBytes = guardians.reduce((sum, pid) => sum + pss(pid), 0);
  process.stdout.write(`${N} idle sessions (80x24, scrollback 2000): ${N - refused.length} opened in ${openSeconds.toFixed(1)} s${refused.length > 0 ? `, ${refused.length} refused: ${refused[0]?.error?.message}` : ""}\n`);
  process.stdout.write(`agent RSS: ${(before / MIB).toFixed(0)} MiB with no session, ${(after / MIB).toFixed(0)} MiB with ${N} (${((after - before) / N / 1024).toFixed(0)} KiB a session)\n`);
  process.stdout.write(`guardians: ${guardians.length}, ${(guardianBytes / MIB).toFixed(0)} MiB PSS in all (${(guardianBytes / Math.max(1, guardians.length) / 1024).toFixed(0)} KiB each)\n`);
} finally {
  spawnSync(bin, [...prefix, "agent", "stop", "--force"], { env, stdio: "ignore" });
  rmSync(dir, { recursive: true, force: true });
}
