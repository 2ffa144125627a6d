// A private agent for one test file (tmux's `-L test$$`): a fresh mkdtemp
// state dir, the CLI run against it, and a teardown that stops the agent
// and proves its process is gone.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corral, type CliOptions, type CliResult } from "./corral-cli.ts";
import { isAlive } from "./processes.ts";
import { agentPidIn, stopAgentFromHere } from "./agent-teardown.ts";
import { waitFor } from "./wait.ts";

export interface PrivateAgent {
  readonly dir: string;
  readonly stateDir: string;
  readonly socket: string;
  readonly env: Record<string, string>;
  /** Runs `corral ARGS` against this agent. */
  run(args: readonly string[], options?: CliOptions): Promise<CliResult>;
  /** Runs and expects exit 0; returns stdout as text. */
  ok(args: readonly string[], options?: CliOptions): Promise<string>;
  /** The agent's pid from its pid file, or undefined. */
  pid(): number | undefined;
  /** Stops the agent (if any), checks it is gone, removes the dir. */
  stop(): Promise<void>;
}

/** Makes a private agent environment; the agent starts on first use. */
export function privateAgent(label: string, extraEnv: Record<string, string> = {}): PrivateAgent {
  const dir = mkdtempSync(path.join(os.tmpdir(), `corral-${label}-`));
  const stateDir = path.join(dir, "state");
  const env = { CORRAL_STATE_DIR: stateDir, CORRAL_AGENT_IDLE: "5m", CORRAL_SOCKET: "", ...extraEnv };
  const agent: PrivateAgent = {
    dir,
    stateDir,
    socket: path.join(stateDir, "agent.sock"),
    env,
    run: (args, options = {}) => corral(args, { ...options, env: { ...env, ...options.env } }),
    async ok(args, options) {
      const result = await agent.run(args, options);
      if (result.code !== 0) {
        throw new Error(`corral ${args.join(" ")} exited ${result.code ?? `by ${result.signal}`}: ${result.stderr.trim()}`);
      }
      return result.stdout.toString("utf8");
    },
    pid: () => agentPidIn(stateDir),
    async stop() {
      const pid = agent.pid();
      // One that did not answer as an agent (being started, another protocol): the command stops it.
      if (!await stopAgentFromHere(agent.socket) && pid !== undefined && isAlive(pid)) await agent.run(["agent", "stop", "--force"]);
      if (pid !== undefined) await waitFor(() => !isAlive(pid), { what: `agent ${pid} to exit` });
      // Guardians of an agent a test killed outlive it, waiting for the next one (issue 11): reap ends them.
      if (guardianRecordsLeft(stateDir)) await agent.run(["reap", "--all", "--grace", "1s"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return agent;
}

/** Records of guardians (lib/supervise/guardian-records.ts) still in the state dir. */
export function guardianRecordsLeft(stateDir: string): boolean {
  try {
    return readdirSync(path.join(stateDir, "guardians")).some((name) => name.endsWith(".json"));
  } catch {
    return false;
  }
}
