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
import { bundleSuite, type SuiteBundle } from "./suite-bundle.ts";
import { LONG_FILES, longestFirst } from "./long-files.ts";

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
const chosen = args.length > 0 ? args.map((f) => path.relative(repoRoot, path.resolve(f))) : undefined;
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
  // The compiled files when there are (suite-bundle.ts), each test process
  // inheriting --enable-source-maps; else from source through tsx's ESM
  // loader only: the test files are ES modules, and without its CommonJS
  // hook each test process (which inherits these flags) loads its modules
  // for about 0.1 s less CPU.
  const runner = bundle === null
    ? ["--import", "tsx/esm", path.join(repoRoot, RUN_FILES)]
    : ["--enable-source-maps", bundle.compiled(RUN_FILES)];
  const child = spawn(
    process.execPath,
    [
      ...runner,
      "--concurrency",
      concurrencyArg,
      "--progress-fd",
      "3",
      ...(bundle === null ? files : files.map((file) => bundle!.compiled(file))),
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
// Compiled once for every stage (suite-bundle.ts); CORRAL_TEST_FROM_SOURCE=1 runs them through tsx instead.
const RUN_FILES = path.join("test", "support", "run-files.ts");
let bundle: SuiteBundle | null = null;
if (process.env.CORRAL_TEST_FROM_SOURCE !== "1") {
  try {
    bundle = await bundleSuite(repoRoot, [RUN_FILES, ...(chosen ?? found)]);
    process.on("exit", () => bundle?.remove());
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors ?? [];
    for (const e of errors) process.stdout.write(`# run-suite: ${e.location ? `${e.location.file}:${e.location.line}: ` : ""}${e.text}\n`);
    process.stdout.write(`# run-suite: the test files could not be compiled (${String(error).split("\n")[0]}); CORRAL_TEST_FROM_SOURCE=1 runs them through tsx\n`);
    process.exit(1);
  }
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
