// `screen`: the visible rows after every byte received so far was parsed.
import type { AgentContext } from "../agent-context.ts";
import type { ReplyBodies, ScreenRequest } from "../../protocol/messages.ts";
import { screenView } from "../screen-view.ts";

/** Reads a screen; this read becomes the session's "last read" for `changed`. */
export async function handleScreen(ctx: AgentContext, request: ScreenRequest): Promise<ReplyBodies["screen"]> {
  const entry = ctx.registry.get(request.session);
  const options = {
    ...(request.since !== undefined ? { since: request.since } : {}),
    ...(request.scrollback !== undefined ? { scrollback: Math.min(request.scrollback, 100_000) } : {}),
    ...(request.styles === true ? { styles: true } : {}),
  };
  return { screen: await screenView(entry, options) };
}
