// `corral pty screen`: the rows as text, or the whole snapshot as JSON.
import type { CorralContext } from "./context.ts";
import type { ScreenFlags } from "./pty-flags.ts";
import { intFlag } from "./pty-values.ts";
import { replyBody, reportFailure, withAgent } from "./agent-reach.ts";

/** Prints a session's screen. */
export async function ptyScreenAction(this: CorralContext, flags: ScreenFlags, session: string): Promise<void> {
  let scrollback: number | undefined;
  try {
    scrollback = intFlag("--scrollback", flags.scrollback, 0, 10_000);
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  await withAgent(this, flags, async (client) => {
    const screen = replyBody(
      await client.call({
        op: "screen",
        session,
        ...(flags.since !== undefined ? { since: flags.since } : {}),
        ...(scrollback !== undefined ? { scrollback } : {}),
      }),
    );
    const { screen: view } = screen;
    this.process.stdout.write(flags.json ? `${JSON.stringify(screen)}\n` : [...(view.scrollback ?? []), ...view.lines].map((l) => `${l}\n`).join(""));
  });
}
