// Runs every test/scripts/*.sh as a user would: `bash -euo pipefail`, the
// built CLI on PATH as `corral`, a private agent state dir, a scratch dir as
// the working directory. A script passes when it exits 0 and, after its
// agent is stopped, nothing it started is still running (grandchildren and
// tmux servers included: they all inherit the script's marker).
// CORRALTEST_SCRIPT=name.sh runs one script.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { corralCommand, repoRoot } from "../support/corral-cli.ts";
import { processesWithEnv } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

const scriptsDir = path.join(repoRoot, "test", "scripts");
const only = process.env.CORRALTEST_SCRIPT;
const scripts = readdirSync(scriptsDir)
  .filter((name) => name.endsWith(".sh") && name !== "lib.sh")
  .filter((name) => only === undefined || only === "" || name === only)
  .sort();

const SCRIPT_MARKER = "CORRALTEST_SCRIPT_RUN";
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

async function stopAgent(env: Record<string, string>, cwd: string): Promise<void> {
  const [command, ...args] = corralCommand();
  const run = (words: string[]) => new Promise<void>((resolve) => spawn(command!, [...args, ...words], { cwd, env, stdio: "ignore" }).on("close", () => resolve()));
  await run(["agent", "stop", "--force"]);
  // Guardians of an agent the script killed wait for the next one (issue 11): reap ends them.
  await run(["reap", "--all", "--grace", "1s"]);
}

/** What the script left running once its agent stopped; killed, then named. */
async function leftoverProcesses(runId: string) {
  try {
    await waitFor(() => processesWithEnv(SCRIPT_MARKER, runId).length === 0, {
      timeoutMs: 15_000,
      intervalMs: 50,
      what: "the script's processes to end",
    });
    return [];
  } catch {
    const leftovers = processesWithEnv(SCRIPT_MARKER, runId);
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

for (const name of scripts) {
  test(`script ${name}`, async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), `corral-script-${name.replace(/\.sh$/, "")}-`));
    const bin = path.join(root, "bin");
    const work = path.join(root, "work");
    mkdirSync(bin);
    mkdirSync(work);
    // `corral` on PATH is the built CLI under the runtime under test.
    writeFileSync(path.join(bin, "corral"), `#!/bin/sh\nexec ${corralCommand().map(shellQuote).join(" ")} "$@"\n`);
    chmodSync(path.join(bin, "corral"), 0o755);
    const runId = `${process.pid}-${name}-${Date.now()}`;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      CORRAL_STATE_DIR: path.join(root, "state"),
      CORRAL_AGENT_IDLE: "5m",
      CORRAL_SOCKET: "",
      CORRAL_REPO: repoRoot,
      SCRIPT_LIB: path.join(scriptsDir, "lib.sh"),
      SCRIPT_TMP: work,
      TMPDIR: work,
      [SCRIPT_MARKER]: runId,
    };
    delete env.TMUX;
    delete env.CI;
    let result: ScriptResult;
    try {
      result = await runScript(path.join(scriptsDir, name), env, work);
    } finally {
      await stopAgent(env, work);
    }
    const leftovers = await leftoverProcesses(runId);
    rmSync(root, { recursive: true, force: true });
    if (result.code !== 0 || leftovers.length > 0) {
      const left = leftovers.map((p) => `  ${p.pid}: ${p.cmdline}`).join("\n");
      throw new Error(
        `script ${name} exited ${result.code ?? result.signal}` +
          (left ? `\nleft running:\n${left}` : "") +
          `\n--- output (last 64 KiB) ---\n${result.output}`,
      );
    }
  });
}
