// Launching the agent process: detached from the caller's terminal (its own
// session), stdio to the log file, environment without the caller's
// credentials. Separate from auto-start so that connecting to a running
// agent never loads child_process.
import { spawn, type ChildProcess } from "node:child_process";
import { openSync, closeSync, renameSync, statSync } from "node:fs";
import { selfCommand } from "../../runtime/self-command.ts";
import { agentEnvironment } from "./agent-environment.ts";

/** Starts `corral agent run --socket SOCKET` in the background; returns the child (unref'd). */
export function spawnAgent(socket: string, logPath: string, env: Readonly<Record<string, string | undefined>>): ChildProcess {
  rotateLog(logPath);
  const command = selfCommand(["agent", "run", "--socket", socket]);
  const log = openSync(logPath, "a", 0o600);
  try {
    const child = spawn(command.file, [...command.args], {
      cwd: command.cwd,
      detached: true,
      stdio: ["ignore", log, log],
      env: agentEnvironment(env),
    });
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

/** The log is appended to by every agent started on this socket; past this it is rotated once. */
const MAX_LOG_BYTES = 1024 * 1024;

function rotateLog(logPath: string): void {
  try {
    if (statSync(logPath).size > MAX_LOG_BYTES) renameSync(logPath, `${logPath}.1`);
  } catch {
    // no log yet
  }
}
