// The test gate's driver: runs the suite on Node's test runner with the CLI
// under Node, then the smoke subset (test/smoke/) with the CLI under Deno and
// Bun, then proves that no process started by the tests is still running.
// Usage: run-suite.ts [--runtimes node,deno,bun] [--concurrency N] [test files...]
// --concurrency (or $CORRAL_TEST_CONCURRENCY): how many test files run at
// once (each in its own process), 3 by default (on 2 cores: the tests spend
// part of their time waiting on programs, and 3 ran the Node stage in 263 s
// against 404 s for 2); every file must be able to share the machine with others (private agents, tmux servers, temp dirs,
// and leak checks that only look at their own processes). The longest files
// start first (LONG_FILES), so no long file starts last and runs alone.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./corral-cli.ts";
import { SUITE_MARKER, processesMarked } from "./processes.ts";
import { waitFor } from "./wait.ts";

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== "bench" && name !== "support") found.push(...testFiles(full));
    } else if (name.endsWith(".test.ts")) {
      found.push(path.relative(repoRoot, full));
    }
  }
  return found;
}

/**
 * The files that take longest (test/bench/file-costs.sh measures them),
 * longest first: run-files.ts starts files in the order given (`node --test`
 * would sort them by name), and a long file started last would leave the
 * other slot idle. Files not listed keep name order.
 */
const LONG_FILES = [
  "test/cli/install.test.ts",
  "test/cli/install-git-dependency.test.ts",
  "test/cli/jobs/jobs-cli.test.ts",
  "test/lib/native/install-build.test.ts",
  "test/scripts/scripts-1.test.ts",
  "test/scripts/scripts-2.test.ts",
  "test/scripts/scripts-3.test.ts",
  "test/scripts/scripts-4.test.ts",
  "test/lib/pty/pty-queries.test.ts",
  "test/cli/collect/collect-capture.test.ts",
  "test/cli/collect/collect-ci.test.ts",
  "test/lib/agent/agent-programs.test.ts",
  "test/lib/agent/agent-sessions.test.ts",
  "test/lib/pty/pty-widths.test.ts",
  "test/cli/jobs/tty-jobs.test.ts",
];

function longestFirst(files: readonly string[]): string[] {
  const rank = (file: string) => {
    const at = LONG_FILES.indexOf(file.split(path.sep).join("/"));
    return at < 0 ? LONG_FILES.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

const args = process.argv.slice(2);
let runtimes = ["node", "deno", "bun"];
const runtimesAt = args.indexOf("--runtimes");
if (runtimesAt >= 0) {
  runtimes = (args[runtimesAt + 1] ?? "").split(",");
  args.splice(runtimesAt, 2);
}
let concurrency = Number(process.env.CORRAL_TEST_CONCURRENCY ?? "3");
const concurrencyAt = args.indexOf("--concurrency");
if (concurrencyAt >= 0) {
  concurrency = Number(args[concurrencyAt + 1]);
  args.splice(concurrencyAt, 2);
}
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write("run-suite: --concurrency needs a whole number of test files, 1 or more\n");
  process.exit(2);
}
const chosen = args.length > 0 ? args : undefined;
const marker = `${process.pid}-${Date.now()}`;
let passed = 0;
let failed = 0;

function stage(runtime: string, files: string[]): Promise<void> {
  if (files.length === 0) return Promise.resolve();
  process.stdout.write(`\n# corral suite: CLI under ${runtime}, ${files.length} files, ${concurrency} at a time\n`);
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(repoRoot, "test", "support", "run-files.ts"), "--concurrency", String(concurrency), ...files],
    {
      cwd: repoRoot,
      env: { ...process.env, [SUITE_MARKER]: marker, CORRAL_TEST_RUNTIME: runtime },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  // The runner's summary lines (ℹ pass N ...) come before its list of
  // failures, which can be long: keep the last value of each as lines pass.
  const summary = new Map<string, number>();
  let partial = "";
  child.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const found = /^ℹ (pass|fail|cancelled) (\d+)$/.exec(line.trimEnd());
      if (found) summary.set(found[1]!, Number(found[2]));
    }
  });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const count = (label: string) => summary.get(label) ?? 0;
      passed += count("pass");
      const stageFailed = count("fail") + count("cancelled");
      failed += stageFailed === 0 && code !== 0 ? 1 : stageFailed;
      resolve();
    });
  });
}

// The guardian test files each run `make all sanitize` (test/support/guardian-fixture.ts);
// built once here, those are no-ops, and two files running at once never
// write the same binary while the other runs it. Without a compiler the
// fixture says why itself.
spawnSync("make", ["-s", "-C", path.join(repoRoot, "native"), "all", "sanitize"], { stdio: "inherit" });

const found = testFiles(path.join(repoRoot, "test"));
for (const file of LONG_FILES.filter((f) => !found.includes(f.split("/").join(path.sep)))) {
  process.stdout.write(`# run-suite: LONG_FILES names ${file}, which is not a test file (moved?)\n`);
}
const all = longestFirst(found);
for (const runtime of runtimes) {
  const files = runtime === "node"
    ? (chosen ?? all)
    : (chosen ?? all).filter((f) => f.startsWith(path.join("test", "smoke") + path.sep));
  await stage(runtime, files);
}

// Every process the tests started carries the marker; give the last exits a
// moment to be reaped, then anything still alive is a leak.
try {
  await waitFor(() => processesMarked(marker).length === 0, { timeoutMs: 10_000, intervalMs: 100 });
} catch {
  const leaked = processesMarked(marker);
  for (const p of leaked) {
    process.stdout.write(`# leaked process ${p.pid}: ${p.cmdline}\n`);
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (leaked.length > 0) failed += 1;
}

process.stdout.write(`\nsuite: ${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
