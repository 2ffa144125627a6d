// Shared by the job tests: a private agent (test/support/agent-harness.ts)
// and an outer terminal to run corral in: a tmux server on a private socket
// (`-L corraltest-PID-N`, `-f /dev/null`) with one bash pane. The pane's
// shell reports each command's status as `RC<n>=<status>` so tests wait on
// the screen, never on a sleep. Teardown kills the tmux server and reaps
// every job, so nothing is left running.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { TestContext } from "node:test";
import { corralCommand } from "./corral-cli.ts";
import { corralInProcess } from "./corral-in-process.ts";
import { privateAgent, type PrivateAgent } from "./agent-harness.ts";
import { waitFor } from "./wait.ts";
import type { JobInfo } from "../../lib/jobs/job-info.ts";

let servers = 0;

/** Shell-quotes one word. */
export function quote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** `corral` as a shell command line for the pane. */
export const corralLine = corralCommand().map(quote).join(" ");

/** A bash pane in a private tmux server, wired to a private agent. */
export class OuterTerminal {
  readonly socket = `corraltest-${process.pid}-${++servers}`;
  #rc = 0;

  constructor(readonly agent: PrivateAgent, cols = 100, rows = 30) {
    const env = Object.entries(agent.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    this.tmux(
      "set", "-g", "status", "off", ";",
      "new-session", "-d", "-s", "t", "-x", String(cols), "-y", String(rows), ...env, "-c", agent.dir,
      "--", "bash", "--norc", "--noprofile",
    );
    this.keys("-l", "PS1='$ '; unset PROMPT_COMMAND");
    this.keys("Enter");
  }

  tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }

  /** tmux send-keys to the pane. */
  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "t", ...keys);
  }

  /** Types `line` literally and presses Enter. */
  type(line: string): void {
    this.keys("-l", "--", line);
    this.keys("Enter");
  }

  /** Runs a shell command line; returns the RC label it will print when it ends. */
  run(line: string): string {
    const label = `RC${++this.#rc}`;
    this.type(`${line}; echo "${label}=$?"`);
    return label;
  }

  /** Runs `corral ARGS` in the pane; returns its RC label. */
  corral(args: string): string {
    return this.run(`${corralLine} ${args}`);
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", "t");
  }

  /** Waits until the screen matches; returns the match. */
  async waitScreen(pattern: RegExp, what: string, timeoutMs = 30_000): Promise<RegExpExecArray> {
    try {
      return await waitFor(() => pattern.exec(this.screen()) ?? undefined, { timeoutMs, intervalMs: 50, what });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- screen ---\n${this.screen()}`);
    }
  }

  /**
   * Waits until the pane's terminal is raw (no canonical mode): a corral
   * `run --tty` or `fg` holds it then, and what is typed goes to the job.
   * Typed before, the shell's terminal echoes it itself (seen: "second
   * linesecond line" after a fg at load 5).
   */
  async waitTerminalRaw(what: string, timeoutMs = 30_000): Promise<void> {
    const tty = this.tmux("display", "-p", "-t", "t", "#{pane_tty}").trim();
    await waitFor(() => / -icanon /.test(` ${execFileSync("stty", ["-F", tty, "-a"], { encoding: "utf8" }).replace(/\s+/g, " ")} `), { timeoutMs, intervalMs: 50, what });
  }

  /** The status printed under `label`. */
  async status(label: string, timeoutMs = 60_000): Promise<number> {
    const match = await this.waitScreen(new RegExp(`${label}=(\\d+)\\s*$`, "m"), `${label} (a command's status)`, timeoutMs);
    return Number(match[1]);
  }

  /** The pane's shell pid and the pid of its foreground child (corral), if any. */
  foregroundChild(): number | undefined {
    const shell = Number(this.tmux("display", "-p", "-t", "t", "#{pane_pid}").trim());
    const children = readFileSync(`/proc/${shell}/task/${shell}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.length > 0 ? Number(children[0]) : undefined;
  }

  /** `stty -a` of the pane's terminal as the shell sees it, via a file. */
  async sttyState(file: string): Promise<string> {
    const label = this.run(`stty -a > ${quote(path.join(this.agent.dir, file))}`);
    await this.status(label);
    return readFileSync(path.join(this.agent.dir, file), "utf8");
  }

  kill(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // already gone
    }
  }
}

/** A private agent for one test, every job reaped and the agent gone when it ends. */
export function agentFor(t: TestContext, label: string, env: Record<string, string> = {}): PrivateAgent {
  const agent = privateAgent(label, env);
  t.after(async () => {
    await agent.run(["reap", "--all", "--grace", "1s"]);
    await agent.stop();
  });
  return agent;
}

/**
 * `corral jobs --json` as objects, run in-process (test/support/corral-in-process.ts):
 * tests poll it in waits, and a runtime start-up per poll cost more CPU than
 * the rest of those tests. What users run stays tested through agent.run.
 */
export async function jobList(agent: PrivateAgent): Promise<JobInfo[]> {
  const r = await corralInProcess(["jobs", "--json"], { env: agent.env });
  if (r.code !== 0) throw new Error(`corral jobs --json exited ${r.code}: ${r.stderr}`);
  return (JSON.parse(r.stdout.toString("utf8")) as { jobs: JobInfo[] }).jobs;
}

/** A private agent and an outer terminal, both gone (every job reaped) when the test ends. */
export function terminalWithAgent(t: TestContext, label: string): OuterTerminal {
  const agent = privateAgent(label);
  const term = new OuterTerminal(agent);
  t.after(async () => {
    term.kill();
    await agent.run(["reap", "--all", "--grace", "1s"]);
    await agent.stop();
  });
  return term;
}
