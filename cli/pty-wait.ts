// `corral pty wait`: blocks until a condition holds; prints which fired;
// exit 124 when --timeout passes first.
import type { CorralContext } from "./context.ts";
import type { WaitFlags } from "./pty-flags.ts";
import { intFlag } from "./pty-values.ts";
import { replyBody, reportFailure, withAgent } from "./agent-reach.ts";
import { UsageError } from "./exit-status.ts";
import { printWait, waitConditions } from "./pty-wait-conditions.ts";
import type { WaitConditions } from "../lib/agent/protocol/messages.ts";

export { DEFAULT_WAIT_TIMEOUT_MS } from "./pty-wait-conditions.ts";

/** Waits on a session. */
export async function ptyWaitAction(this: CorralContext, flags: WaitFlags, session: string): Promise<void> {
  let conditions: WaitConditions | null;
  let after: number | undefined;
  try {
    conditions = await waitConditions(
      { text: flags.text ?? [], regex: flags.regex ?? [], stable: flags.stable, ready: flags.ready, exit: flags.exit, timeout: flags.timeout },
      { stable: "--stable" },
    );
    if (conditions === null) {
      throw new UsageError("pty wait needs a condition: --text STR, --regex RE, --stable DUR, --ready or --exit");
    }
    after = intFlag("--after", flags.after, 0, Number.MAX_SAFE_INTEGER);
    if (after !== undefined && flags.new) throw new UsageError("give --after N or --new, not both (--new is --after the position when the wait begins)");
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  const request = conditions;
  await withAgent(this, flags, async (client) => {
    const reply = replyBody(
      await client.call({
        op: "wait",
        session,
        ...request,
        ...(after !== undefined ? { after } : {}),
        ...(flags.new ? { new: true } : {}),
      }),
    );
    printWait(this.process.stdout, this.process.stderr, reply, flags.json);
  });
}
