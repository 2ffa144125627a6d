// Timing one command of a benchmark as its process tree: wall time, CPU time
// (user + sys) and peak RSS. python3 (CI installs it) runs the command and
// reads getrusage of its waited-for tree, which Node's spawn cannot give;
// without it, wall time only and VmHWM polled from /proc.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import process from "node:process";

export interface Timed {
  readonly ms: number;
  /** CPU time (user + sys) of the process tree, when python3 measured it. */
  readonly cpuMs: number | undefined;
  /** Peak RSS of the largest process of the tree, in bytes, if seen. */
  readonly peakRss: number | undefined;
}

// python3 (CI installs it) runs each command and reads getrusage of its
// waited-for tree: exact CPU time and peak RSS, which Node's spawn cannot
// give. Without it, wall time only and VmHWM polled from /proc.
const TIMER_PY = `
import json, os, resource, subprocess, sys, time
b = resource.getrusage(resource.RUSAGE_CHILDREN)  # a pyenv shim's own children count too
t = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL)
ms = (time.perf_counter() - t) * 1000
u = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (u.ru_utime - b.ru_utime + u.ru_stime - b.ru_stime) * 1000
os.write(3, json.dumps({"code": r.returncode, "ms": ms, "cpuMs": cpu, "maxRssKb": u.ru_maxrss}).encode())
`;
export const havePython = spawnSync("python3", ["-c", "pass"]).status === 0;

/** Runs argv with stdout to `stdoutPath` (or /dev/null): wall time, CPU time and peak RSS. */
export function timed(cwd: string, argv: readonly string[], stdoutPath = "/dev/null", env: Record<string, string> = {}): Promise<Timed> {
  const fd = openSync(stdoutPath, "w");
  const started = performance.now();
  const [file, args] = havePython
    ? ["python3", ["-c", TIMER_PY, ...argv]]
    : [argv[0] as string, argv.slice(1)];
  const child = spawn(file, args, {
    stdio: ["ignore", fd, "inherit", "pipe"],
    cwd,
    env: { ...process.env, ...env },
  });
  closeSync(fd);
  let report = "";
  child.stdio[3]?.on("data", (c: Buffer) => (report += c.toString("utf8")));
  let peakRss: number | undefined;
  const poll = havePython ? undefined : setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) peakRss = Math.max(peakRss ?? 0, Number(m[1]) * 1024);
    } catch {
      // gone already
    }
  }, 10);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const ms = performance.now() - started;
      clearInterval(poll);
      if (!havePython) {
        if (code !== 0) reject(new Error(`${argv.join(" ")} exited ${code ?? signal}`));
        else resolve({ ms, cpuMs: undefined, peakRss });
        return;
      }
      const r = JSON.parse(report || "{}") as { code?: number; ms: number; cpuMs: number; maxRssKb: number };
      if (r.code !== 0) reject(new Error(`${argv.join(" ")} exited ${r.code ?? code ?? signal}`));
      else resolve({ ms: r.ms, cpuMs: r.cpuMs, peakRss: r.maxRssKb * 1024 });
    });
  });
}
