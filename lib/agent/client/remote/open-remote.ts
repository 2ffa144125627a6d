// A client of a remote agent (remote-target.ts): the transport's process
// started with the framed preamble, the same AgentClient over its stdio.
// The remote `corral connect` starts its agent on demand, as a local
// command does.
import { AgentClient } from "../client.ts";
import { ensureStateDir, stateDirPath } from "../state-dir.ts";
import { currentUid } from "../../../runtime/user-id.ts";
import { openCommandLink } from "./command-link.ts";
import type { RemoteTarget } from "./remote-target.ts";
import { controlDirOf, shellWord, sshArgv, sshCommandOf } from "./ssh-argv.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** The argv whose stdio reaches `target`'s `corral connect`. */
export function transportArgv(target: RemoteTarget, env: Env): string[] {
  if (target.kind === "via") return ["sh", "-c", target.command];
  const controlDir = controlDirOf(ensureStateDir(stateDirPath(env)), currentUid());
  return sshArgv(sshCommandOf(env), controlDir, target.destination, `${shellWord(target.corral)} connect`);
}

/** A connected client, hello not yet sent; failures of the transport come as RemoteLinkError. */
export async function openRemoteClient(target: RemoteTarget, env: Env, start: boolean): Promise<AgentClient> {
  const argv = transportArgv(target, env);
  return await AgentClient.over((events) => openCommandLink(argv, target, start, events));
}
