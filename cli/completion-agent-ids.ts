// The `sessions` id source for shell completion: asks a running agent for
// its sessions. Never starts one (a plain connect, no auto-start), and gives
// up after a short deadline so a stuck agent cannot hang the shell.
import { AgentClient } from "../lib/agent/client.ts";
import { socketPath } from "../lib/agent/state-dir.ts";

type Env = Readonly<Record<string, string | undefined>>;

const DEADLINE_MS = 1500;

/** Session ids and names (either one addresses a session), in list order. */
export async function sessionIds(env: Env): Promise<readonly string[]> {
  let client: AgentClient | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ask = async (): Promise<readonly string[]> => {
    client = await AgentClient.open(socketPath(env));
    await client.hello();
    const { sessions } = await client.call({ op: "list" });
    return [...new Set(sessions.flatMap((s) => (s.name === null ? [s.session] : [s.name, s.session])))];
  };
  const late = new Promise<readonly string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), DEADLINE_MS);
  });
  try {
    return await Promise.race([ask(), late]);
  } finally {
    clearTimeout(timer);
    client?.close();
  }
}
