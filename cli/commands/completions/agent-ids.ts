// The id sources for shell completion: ask a running agent for its sessions
// or jobs. Never starts one (a plain connect, no auto-start), and gives up
// after a short deadline so a stuck agent cannot hang the shell.
import { AgentClient } from "../../../lib/agent/client/client.ts";
import { socketPath } from "../../../lib/agent/client/state-dir.ts";
import { verifyAgentSocket } from "../../../lib/agent/client/agent-trust.ts";

type Env = Readonly<Record<string, string | undefined>>;

const DEADLINE_MS = 1500;

async function askAgent(env: Env, ask: (client: AgentClient) => Promise<string[]>): Promise<readonly string[]> {
  let client: AgentClient | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<readonly string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), DEADLINE_MS);
  });
  const answer = (async () => {
    const socket = socketPath(env);
    client = await AgentClient.open(socket);
    // Nothing goes to an agent that is not provably ours (agent-trust.ts); a refusal means no ids.
    verifyAgentSocket(socket);
    await client.hello();
    return [...new Set(await ask(client))];
  })();
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
    client?.close();
  }
}

/** Session names and ids (either one addresses a session), in list order. */
export function sessionIds(env: Env): Promise<readonly string[]> {
  return askAgent(env, async (client) => {
    const { sessions } = await client.call({ op: "list" });
    return sessions.flatMap((s) => (s.name === null || s.retired ? [s.id] : [s.name, s.id]));
  });
}

/** Job ids as `%N`, and job names, in table order. */
export function jobIds(env: Env): Promise<readonly string[]> {
  return askAgent(env, async (client) => {
    const { jobs } = await client.call({ op: "jobs" });
    return jobs.flatMap((j) => (j.name === null ? [j.id] : [j.id, j.name]));
  });
}
