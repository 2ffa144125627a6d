// A second local user's state dir with a listener planted in it by another
// account (root): the socket file is given to the user, so only the peer
// credential check can tell it is not the user's own agent. The native
// client's tests use it to prove nothing is sent to such a listener.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { TestContext } from "node:test";
import { createLocalUser, type LocalUser, localUsersUnavailable, removeLocalUser } from "./local-users.ts";

export interface PlantedAgent {
  readonly user: LocalUser;
  readonly stateDir: string;
  /** Bytes the listener received, and over how many connections. */
  readonly received: () => { bytes: number; connections: number };
}

/** The planted listener, or why it cannot be set up here (then the test skips with it). */
export async function plantedAgent(t: TestContext, userPrefix: string, bin: string): Promise<PlantedAgent | string> {
  const why = localUsersUnavailable();
  if (why !== null) return why;
  const user = await createLocalUser(userPrefix);
  t.after(() => removeLocalUser(user));
  // The second user must be able to run the bin from this checkout.
  const reach = spawnSync(bin, ["--version"], { uid: user.uid, gid: user.gid, env: { PATH: process.env.PATH, CORRAL_CLIENT: "js", CORRAL_JS_RUNTIME: process.execPath } });
  if (reach.status !== 0) return `the second user cannot run ${bin} (a checkout it cannot read): ${String(reach.stderr).trim()}`;
  // The user's own state dir, 0700; root (another uid) listens in it and gives the socket file to the user.
  const stateDir = path.join(user.home, "state");
  mkdirSync(stateDir);
  chownSync(stateDir, user.uid, user.gid);
  chmodSync(stateDir, 0o700);
  const socket = path.join(stateDir, "agent.sock");
  let bytes = 0;
  let connections = 0;
  const planted = net.createServer((conn) => {
    connections++;
    conn.on("data", (chunk) => (bytes += chunk.length));
  });
  await new Promise<void>((resolve) => planted.listen(socket, resolve));
  t.after(() => planted.close());
  chownSync(socket, user.uid, user.gid);
  return { user, stateDir, received: () => ({ bytes, connections }) };
}
