// The files that sit beside the agent's socket: the start lock, the pid
// file and the log. Derived from the socket path so that two agents on two
// sockets (tests, `--socket`) never share them.
import path from "node:path";

export interface AgentPaths {
  readonly socket: string;
  readonly lock: string;
  /** The agent's own start hold (lib/agent/server/start-hold.ts): held from before it re-adopts until it is bound. */
  readonly starting: string;
  readonly pid: string;
  readonly log: string;
  readonly dir: string;
}

/** `/dir/agent.sock` -> `/dir/agent.lock`, `/dir/agent.pid`, `/dir/agent.log`. */
export function agentPaths(socket: string): AgentPaths {
  const base = socket.endsWith(".sock") ? socket.slice(0, -".sock".length) : socket;
  return { socket, lock: `${base}.lock`, starting: `${base}.starting`, pid: `${base}.pid`, log: `${base}.log`, dir: path.dirname(socket) };
}
