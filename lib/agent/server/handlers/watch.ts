// `watch`: a read-only stream of a session for `pty view`; after the reply
// the connection carries the screen, then the program's output.
import type { AgentContext } from "../agent-context.ts";
import type { ReplyBodies, WatchRequest } from "../../protocol/messages.ts";
import { WatchBridge } from "../watch-bridge.ts";
import type { JobTerminalTarget } from "./job-start.ts";

/** Starts following the session; the connection switches once the reply is written. */
export async function handleWatch(ctx: AgentContext, request: WatchRequest, target: JobTerminalTarget): Promise<ReplyBodies["watch"]> {
  const entry = ctx.registry.get(request.session);
  const { bridge, cols, rows } = await WatchBridge.start(entry, target.socket);
  target.attachMode(bridge);
  return { session: entry.id, cols, rows };
}
