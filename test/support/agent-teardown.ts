// A test's own agent stopped at teardown from the test process itself: the
// agent-stop request `corral agent stop --force` sends, over a client in
// this process, so a teardown does not start a CLI (about a tenth of a CPU
// second each, and the suite tears down some two hundred agents). The
// command itself is tested where it is the subject (agent-stop-keep-force.sh,
// agent-sessions.test.ts, the smoke subset). Nothing running there: nothing
// to do; the caller then checks the agent's process is gone.
import { readFileSync } from "node:fs";
import path from "node:path";
import { AgentClient } from "../../lib/agent/client/client.ts";

/** The pid in a state dir's agent.pid, or undefined when there is none. */
export function agentPidIn(stateDir: string): number | undefined {
  try {
    return Number(readFileSync(path.join(stateDir, "agent.pid"), "utf8").trim()) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Asks the agent on `socket` to stop, ending what runs, and waits for it to
 * close the connection; true when it said it stops (its process may take a
 * moment more to exit), false when no agent answered as one.
 */
export async function stopAgentFromHere(socket: string): Promise<boolean> {
  let client: AgentClient;
  try {
    client = await AgentClient.open(socket);
  } catch {
    return false; // no socket, or nobody listening
  }
  try {
    await client.hello();
    const reply = await client.call({ op: "agent-stop", running: "end" });
    if (reply.stopping) await client.closed;
    return reply.stopping;
  } catch {
    return false; // an agent of another protocol, or one that went away meanwhile
  } finally {
    client.close();
  }
}
