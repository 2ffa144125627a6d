// Runs every test/scripts/*.sh as a user would: `bash -euo pipefail`, the
// built CLI on PATH as `corral`, a private agent state dir, a scratch dir as
// the working directory. A script passes when it exits 0 and, after its
// agent is stopped, nothing it started is still running (grandchildren and
// tmux servers included: they all inherit the script's marker).
// A script that cannot run its check here exits SKIP_STATUS (lib.sh's
// skip) and is reported as a skipped test with its reason; a part it
// skipped (skip_part) is a skipped subtest. Neither counts as a pass.
// The scripts are split over the shard files beside this module
// (scripts-N.test.ts), so the suite runs them as several test files, side by
// side with the rest, instead of one long serial file; a shard runs two at
// once (script-shards.ts).
// `CORRALTEST_SCRIPT=name.sh node --import tsx --test test/scripts/scripts-*.test.ts`
// runs one script.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { guardianRecordsLeft } from "../support/agent-harness.ts";
import { corralCommand, repoRoot, runtime } from "../support/corral-cli.ts";
import { isAlive, processesMentioning, processesWithEnv } from "../support/processes.ts";
import { agentPidIn, stopAgentFromHere } from "../support/agent-teardown.ts";
import { waitFor } from "../support/wait.ts";
import { inPool, longestFirst, SCRIPT_SHARDS, SCRIPTS_AT_ONCE, shardsOf } from "./script-shards.ts";

export { SCRIPT_SHARDS };

const scriptsDir = path.join(repoRoot, "test", "scripts");

/**
 * The scripts shard `shard` (1-based) owns, in the order it runs them
 * (script-shards.ts: balanced by their known times, so a new script lands
 * in a shard without a list to keep). With CORRALTEST_SCRIPT set, only that
 * script, in the shard that owns it.
 */
export function shardScripts(shard: number): string[] {
  const all = readdirSync(scriptsDir).filter((name) => name.endsWith(".sh") && name !== "lib.sh").sort();
  const only = process.env.CORRALTEST_SCRIPT;
  return shardsOf(all)[shard - 1]!.filter((name) => only === undefined || only === "" || name === only);
}

const SCRIPT_MARKER = "CORRALTEST_SCRIPT_RUN";
/** The status `skip` (lib.sh) exits with, as automake's test drivers read it. */
const SKIP_STATUS = 77;
/** A script that takes longer than this is killed and fails. */
const SCRIPT_DEADLINE_MS = 240_000;

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

interface ScriptResult {
  readonly code: number | null;
  readonly signal: string | null;
  readonly output: string;
}

function runScript(file: string, env: Record<string, string>, cwd: string): Promise<ScriptResult> {
  const child = spawn("bash", ["-euo", "pipefail", file], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-64 * 1024);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const deadline = setTimeout(() => {
    output += `\n[harness] script still running after ${SCRIPT_DEADLINE_MS} ms: killed\n`;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, SCRIPT_DEADLINE_MS);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, output });
    });
  });
}

/**
 * Stops the script's agent (from this process: agent-teardown.ts) and ends what it left. A CLI start costs CPU, and
 * many scripts never start an agent: with no state dir there is no agent to
 * stop, and with no guardian records left there is nothing for reap (it
 * never starts an agent; with none running it only sweeps those records).
 */
async function stopAgent(env: Record<string, string>, cwd: string): Promise<void> {
  const [command, ...args] = corralCommand();
  const run = (words: string[]) => new Promise<void>((resolve) => spawn(command!, [...args, ...words], { cwd, env, stdio: "ignore" }).on("close", () => resolve()));
  const stateDir = env.CORRAL_STATE_DIR!;
  if (existsSync(stateDir)) {
    // One that did not answer as an agent (being started, another protocol): the command stops it.
    if (!await stopAgentFromHere(path.join(stateDir, "agent.sock")) && agentStillRuns(stateDir)) await run(["agent", "stop", "--force"]);
  }
  // Guardians of an agent the script killed wait for the next one (issue 11): reap ends them.
  if (guardianRecordsLeft(stateDir)) await run(["reap", "--all", "--grace", "1s"]);
}

function agentStillRuns(stateDir: string): boolean {
  const pid = agentPidIn(stateDir);
  return pid !== undefined && isAlive(pid);
}

/**
 * What the script left running once its agent stopped; killed, then named:
 * what carries its marker, and what names its scratch dir `root` (a daemon
 * that drops its environment, as sshd does).
 */
async function leftoverProcesses(runId: string, root: string) {
  const left = () => {
    const marked = processesWithEnv(SCRIPT_MARKER, runId);
    return [...marked, ...processesMentioning(root).filter((p) => !marked.some((m) => m.pid === p.pid))];
  };
  try {
    await waitFor(() => left().length === 0, {
      timeoutMs: 15_000,
      intervalMs: 50,
      what: "the script's processes to end",
    });
    return [];
  } catch {
    const leftovers = left();
    for (const p of leftovers) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    return leftovers;
  }
}

/**
 * Declares one test per script of the shard, in the order they run:
 * SCRIPTS_AT_ONCE run side by side from the start, and each test waits for
 * its own script's result.
 */
export function scriptTests(shard: number): void {
  if (shard === 1) {
    test("one shard file per shard, so every script runs", () => {
      const shardFiles = readdirSync(scriptsDir).filter((name) => /^scripts-\d+\.test\.ts$/.test(name)).sort();
      const expected = Array.from({ length: SCRIPT_SHARDS }, (_, i) => `scripts-${i + 1}.test.ts`).sort();
      assert.deepEqual(shardFiles, expected);
    });
  }
  scriptTestsSideBySide(shardScripts(shard));
}

/**
 * The scripts named, once more through the JavaScript CLI as the `corral` on
 * PATH (the other shards run them through the bin, the native client), so
 * both doors stay tested end to end.
 */
export function scriptTestsThroughJavaScript(names: readonly string[]): void {
  scriptTestsSideBySide(longestFirst(names), "js");
}

function scriptTestsSideBySide(names: readonly string[], door: "bin" | "js" = process.env.CORRALTEST_DOOR === "js" ? "js" : "bin"): void {
  const results = inPool(names, SCRIPTS_AT_ONCE, (name) => runUserScript(name, path.join(scriptsDir, name), door));
  names.forEach((name, i) => scriptTest(name, door, results[i]!));
}

/** The reason a skipped script gave (its last `SKIP: ...` line). */
function skipReason(output: string): string {
  const lines = [...output.matchAll(/^SKIP: (.*)$/gm)];
  return lines.at(-1)?.[1] ?? "the script skipped without saying why";
}

function scriptTest(name: string, door: "bin" | "js", result: Promise<PromiseSettledResult<ScriptSkips>>): void {
  test(`script ${name}${door === "js" ? " (JavaScript CLI)" : ""}`, async (t) => {
    const settled = await result;
    if (settled.status === "rejected") throw settled.reason;
    const ran = settled.value;
    if (ran.skipped !== null) t.skip(ran.skipped);
    for (const reason of ran.partsSkipped) await t.test(reason, { skip: reason }, () => {});
  });
}

/** What a script that passed skipped: all of it (its reason), or parts (skip_part's reasons). */
export interface ScriptSkips {
  readonly skipped: string | null;
  readonly partsSkipped: readonly string[];
}

/**
 * Runs `file` as a user script (see the file comment): corral on PATH, a
 * private state dir, a scratch working directory; throws with its output
 * when it fails or leaves a process running; returns the reason when it
 * skipped (`skip REASON` in lib.sh exits 77: a skip, not a pass).
 * test/docs-examples.test.ts runs the docs' runnable blocks through it too.
 */
export async function runUserScript(name: string, file: string, door: "bin" | "js" = process.env.CORRALTEST_DOOR === "js" ? "js" : "bin"): Promise<ScriptSkips> {
  const root = mkdtempSync(path.join(os.tmpdir(), `corral-script-${name.replace(/\.sh$/, "").replace(/[^A-Za-z0-9_.-]+/g, "_")}-`));
  const bin = path.join(root, "bin");
  const work = path.join(root, "work");
  mkdirSync(bin);
  mkdirSync(work);
  // `corral` on PATH is what a user's install runs: under Node, the bin
  // (dist/corral, the native client, which hands what the agent does not
  // serve to the JavaScript CLI); CORRALTEST_DOOR=js, Deno and Bun: the
  // JavaScript CLI under the runtime under test.
  if (runtime === "node" && door === "bin") {
    symlinkSync(path.join(repoRoot, "dist", "corral"), path.join(bin, "corral"));
  } else {
    writeFileSync(path.join(bin, "corral"), `#!/bin/sh\nexec ${corralCommand().map(shellQuote).join(" ")} "$@"\n`);
    chmodSync(path.join(bin, "corral"), 0o755);
  }
  const runId = `${process.pid}-${name}-${Date.now()}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    CORRAL_STATE_DIR: path.join(root, "state"),
    CORRAL_AGENT_IDLE: "5m",
    CORRAL_SOCKET: "",
    CORRAL_REPO: repoRoot,
    // The native client hands over to the JavaScript CLI under this Node.
    CORRAL_JS_RUNTIME: process.execPath,
    SCRIPT_LIB: path.join(scriptsDir, "lib.sh"),
    SCRIPT_TMP: work,
    SCRIPT_SKIPS: path.join(root, "skips"),
    TMPDIR: work,
    [SCRIPT_MARKER]: runId,
  };
  delete env.TMUX;
  delete env.CI;
  let result: ScriptResult;
  try {
    result = await runScript(file, env, work);
  } finally {
    await stopAgent(env, work);
  }
  const leftovers = await leftoverProcesses(runId, root);
  const partsSkipped = existsSync(env.SCRIPT_SKIPS!) ? readFileSync(env.SCRIPT_SKIPS!, "utf8").split("\n").filter((l) => l !== "") : [];
  rmSync(root, { recursive: true, force: true });
  if (result.code === SKIP_STATUS && leftovers.length === 0) return { skipped: skipReason(result.output), partsSkipped };
  if (result.code !== 0 || leftovers.length > 0) {
    const left = leftovers.map((p) => `  ${p.pid}: ${p.cmdline}`).join("\n");
    throw new Error(
      `script ${name} exited ${result.code ?? result.signal}` +
        (left ? `\nleft running:\n${left}` : "") +
        `\n--- output (last 64 KiB) ---\n${result.output}`,
    );
  }
  return { skipped: null, partsSkipped };
}
