// `corral pty view`: placeholder until the view server lands.
import type { CorralContext } from "./context.ts";
import type { ViewFlags } from "./pty-flags.ts";
import { reportFailure } from "./agent-reach.ts";

export async function ptyViewAction(this: CorralContext, _flags: ViewFlags, _session: string): Promise<void> {
  reportFailure(this, new Error("pty view is not built yet"));
}
