// The test gate's driver: runs the suite on Node's test runner with the CLI
// under Node, then the smoke subset (test/smoke/) with the CLI under Deno and
// Bun, then proves that no process started by the tests is still running.
// Usage: run-suite.ts [--gate] [--runtimes node,deno,bun] [--concurrency N|auto] [test files...]
// --gate (npm test): first the build, typecheck, lint and sanitizer build,
// side by side (suite-gate.ts); the suite runs only when they all passed.
// --concurrency (or $CORRAL_TEST_CONCURRENCY): how many test files run at
// once (each in its own process): a number, or `auto` (the default): by the
// machine's idle CPU, cores + 2 at least (file-scheduler.ts); most files
// spend most of their time waiting on programs. Every file must be able to
// share the machine with others (private agents, tmux servers, temp dirs,
// and leak checks that only look at their own processes). The longest files
// start first (LONG_FILES), so no long file starts last and runs alone.
// The Deno stage starts while the Node stage runs its last files (once it
// has started them all; with a fixed N, once fewer than N are left), the Bun
// stage likewise while Deno's does, and both print their reports whole after
// the Node stage's.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./corral-cli.ts";
import { SUITE_MARKER, processesMarked } from "./processes.ts";
import { FileScheduler } from "./file-scheduler.ts";
import { runGate } from "./suite-gate.ts";
import { removeSuiteEnvironment, suiteEnvironment } from "./suite-environment.ts";

// As on a fresh machine: the user's corral config, cache and CORRAL_* settings play no part.
const suite = suiteEnvironment(process.env);
process.on("exit", () => removeSuiteEnvironment(suite.dir));
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
  // 40 to 60 s each (the chaos run is 60 s by itself), the script shards
  // (each runs two scripts at once) between the three that keep a core
  // busy (chaos and the npm installs), so the first files started do not
  // fill the CPU alone; then 10 to 40 s. Started first, and while they wait
  // on programs, the short files fill the machine.
  "test/chaos/chaos.test.ts",
  "test/scripts/scripts-1.test.ts",
  "test/cli/install-git-dependency.test.ts",
  "test/scripts/scripts-2.test.ts",
  "test/cli/install.test.ts",
  "test/scripts/scripts-3.test.ts",
  "test/scripts/scripts-4.test.ts",
  "test/lib/pty/pty-queries.test.ts",
  "test/scripts/scripts-javascript-door.test.ts",
  "test/lib/pty/pty-session.test.ts",
  "test/cli/jobs/tty-jobs.test.ts",
  "test/cli/jobs/jobs-cli.test.ts",
  "test/docs-examples.test.ts",
  "test/cli/run/run-cli.test.ts",
  "test/cli/collect/collect-ci.test.ts",
  "test/lib/jobs/jobs-wait.test.ts",
  "test/lib/pty/pty-widths.test.ts",
  "test/cli/collect/collect-capture.test.ts",
  "test/lib/pty/pty-tmux.test.ts",
  "test/cli/jobs/reap-cli.test.ts",
  "test/cli/mcp/mcp-exec.test.ts",
  "test/cli/run/run-group-backend.test.ts",
  "test/cli/run/run-signals.test.ts",
  "test/cli/native-client/doors.test.ts",
  "test/lib/agent/agent-startup.test.ts",
  "test/cli/collect/collect-cli.test.ts",
  "test/lib/agent/agent-sessions.test.ts",
  "test/lib/agent/agent-programs.test.ts",
  "test/cli/hot-bundles.test.ts",
  "test/cli/mcp/mcp-run.test.ts",
  "test/cli/json-schemas.test.ts",
  "test/lib/native/install-build.test.ts",
  "test/lib/view/pty-view.test.ts",
  "test/lib/pty/pty-record.test.ts",
  "test/lib/supervise/supervise-handle.test.ts",
  "test/cli/mcp/mcp-tools.test.ts",
  "test/layering-house.test.ts",
  "test/cli/lazy-stdio.test.ts",
  "test/layering.test.ts",
];

function longestFirst(files: readonly string[]): string[] {
  const rank = (file: string) => {
    const at = LONG_FILES.indexOf(file.split(path.sep).join("/"));
    return at < 0 ? LONG_FILES.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

const args = process.argv.slice(2);
const gate = args.includes("--gate");
if (gate) args.splice(args.indexOf("--gate"), 1);
let runtimes = ["node", "deno", "bun"];
const runtimesAt = args.indexOf("--runtimes");
if (runtimesAt >= 0) {
  runtimes = (args[runtimesAt + 1] ?? "").split(",");
  args.splice(runtimesAt, 2);
}
let concurrencyArg = process.env.CORRAL_TEST_CONCURRENCY || "auto";
const concurrencyAt = args.indexOf("--concurrency");
if (concurrencyAt >= 0) {
  concurrencyArg = args[concurrencyAt + 1] ?? "";
  args.splice(concurrencyAt, 2);
}
if (concurrencyArg !== "auto" && !(Number.isInteger(Number(concurrencyArg)) && Number(concurrencyArg) >= 1)) {
  process.stderr.write("run-suite: --concurrency needs a whole number of test files, 1 or more, or auto\n");
  process.exit(2);
}
/** The files a stage runs at once at least: below this, it is down to its last files. */
const concurrency = new FileScheduler(concurrencyArg === "auto" ? "auto" : Number(concurrencyArg)).floor;
const chosen = args.length > 0 ? args : undefined;
const marker = `${process.pid}-${Date.now()}`;
let passed = 0;
let failed = 0;

interface StageOptions {
  /** Print the report as it comes (else keep it, printed whole by the caller). */
  readonly live: boolean;
  /**
   * Called once, when the stage has started all its files (by idle CPU: the
   * next stage's files then take what the last ones leave), or with a fixed
   * number at once, when fewer than that still run.
   */
  readonly onTail?: () => void;
}

interface StageResult {
  readonly stdout: string;
  readonly stderr: string;
}

function stage(runtime: string, files: string[], options: StageOptions): Promise<StageResult> {
  const header = `\n# corral suite: CLI under ${runtime}, ${files.length} files, ${concurrencyArg === "auto" ? `${concurrency} or more at a time (by idle CPU)` : `${concurrency} at a time`}\n`;
  if (files.length === 0) {
    options.onTail?.();
    return Promise.resolve({ stdout: "", stderr: "" });
  }
  if (options.live) process.stdout.write(header);
  // tsx's ESM loader only: the test files are ES modules, and without its
  // CommonJS hook each test process (which inherits these flags) loads its
  // modules for about 0.1 s less CPU (a hundred processes a run).
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx/esm",
      path.join(repoRoot, "test", "support", "run-files.ts"),
      "--concurrency",
      concurrencyArg,
      "--progress-fd",
      "3",
      ...files,
    ],
    {
      cwd: repoRoot,
      env: { ...suite.env, [SUITE_MARKER]: marker, CORRAL_TEST_RUNTIME: runtime },
      stdio: ["ignore", "pipe", options.live ? "inherit" : "pipe", "pipe"],
    },
  );
  const kept: string[] = [header];
  const keptErr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => keptErr.push(chunk.toString("utf8")));
  // The runner's summary lines (ℹ pass N ...) come before its list of
  // failures, which can be long: keep the last value of each as lines pass.
  const summary = new Map<string, number>();
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    if (options.live) process.stdout.write(chunk);
    else kept.push(chunk.toString("utf8"));
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const found = /^ℹ (pass|fail|cancelled) (\d+)$/.exec(line.trimEnd());
      if (found) summary.set(found[1]!, Number(found[2]));
    }
  });
  // Which files run now, from run-files' progress lines.
  const started = new Set<string>();
  const ended = new Set<string>();
  const startedAt = performance.now();
  let tailAt: number | undefined;
  let tailCalled = false;
  const tail = () => {
    if (tailCalled) return;
    tailCalled = true;
    tailAt = performance.now();
    options.onTail?.();
  };
  let progressPartial = "";
  (child.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => {
    const lines = (progressPartial + chunk.toString("utf8")).split("\n");
    progressPartial = lines.pop() ?? "";
    for (const line of lines) {
      const space = line.indexOf(" ");
      (line.slice(0, space) === "start" ? started : ended).add(line.slice(space + 1));
    }
    if (started.size >= files.length && (concurrencyArg === "auto" || started.size - ended.size < concurrency)) tail();
  });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const count = (label: string) => summary.get(label) ?? 0;
      passed += count("pass");
      const stageFailed = count("fail") + count("cancelled");
      failed += stageFailed === 0 && code !== 0 ? 1 : stageFailed;
      tail();
      // Where the stage's time went: all of it, and the tail where it left a
      // slot free (the next stages run there).
      const seconds = (ms: number) => (ms / 1000).toFixed(1);
      const took = `\n# corral suite: CLI under ${runtime} took ${seconds(performance.now() - startedAt)} s; ${concurrencyArg === "auto" ? "its last file started" : `fewer than ${concurrency} files ran`} ${seconds(performance.now() - tailAt!)} s before its end\n`;
      if (options.live) process.stdout.write(took);
      else kept.push(took);
      resolve({ stdout: kept.join(""), stderr: keptErr.join("") });
    });
  });
}

if (gate && !(await runGate())) {
  process.stdout.write("\nsuite: not run, the gate failed\n");
  process.exit(1);
}

// The guardian test files each run `make all sanitize` (test/support/guardian-fixture.ts);
// built once here, those are no-ops, and two files running at once never
// write the same binary while the other runs it. Without a compiler the
// fixture says why itself. (With --gate, the gate built it already.)
spawnSync("make", ["-s", "-C", path.join(repoRoot, "native"), "all", "sanitize"], { stdio: "inherit" });

const found = testFiles(path.join(repoRoot, "test"));
for (const file of LONG_FILES.filter((f) => !found.includes(f.split("/").join(path.sep)))) {
  process.stdout.write(`# run-suite: LONG_FILES names ${file}, which is not a test file (moved?)\n`);
}
const all = longestFirst(found);
const stageFiles = (runtime: string) =>
  runtime === "node"
    ? (chosen ?? all)
    : (chosen ?? all).filter((f) => f.startsWith(path.join("test", "smoke") + path.sep));

// The first stage (Node's, the whole suite) prints as it goes. The others
// (the smoke subset under Deno, then Bun) each start as soon as the stage
// before is down to its last files, where the machine would otherwise idle
// (onTail); their reports are kept and printed whole after the first stage's.
const [first, ...rest] = runtimes;
let startRest!: () => void;
const restMayStart = new Promise<void>((resolve) => (startRest = resolve));
const restDone = (async () => {
  await restMayStart;
  const results: Promise<StageResult>[] = [];
  for (const runtime of rest) {
    let tail!: () => void;
    const tailed = new Promise<void>((resolve) => (tail = resolve));
    results.push(stage(runtime, stageFiles(runtime), { live: false, onTail: tail }));
    await tailed;
  }
  return Promise.all(results);
})();
if (first !== undefined) await stage(first, stageFiles(first), { live: true, onTail: startRest });
startRest();
for (const result of await restDone) {
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
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
