// `corral pty wait`: blocks until a condition holds; prints which fired;
// exit 124 when --timeout passes first.
import type { CorralContext } from "../../shared/context.ts";
import type { WaitFlags } from "./flags.ts";
import { replyBody, reportFailure, sessionOnly, withAgent } from "../../shared/agent-reach.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { DEFAULT_WAIT_TIMEOUT_MS, printWait, waitConditions } from "./wait-conditions.ts";
import type { WaitConditions } from "../../../lib/agent/protocol/messages.ts";

export { DEFAULT_WAIT_TIMEOUT_MS } from "./wait-conditions.ts";

/** Waits on a session. */
export async function ptyWaitAction(this: CorralContext, flags: WaitFlags, session: string): Promise<void> {
  let conditions: WaitConditions | null;
  const after = flags.after;
  try {
    conditions = await waitConditions(
      { text: flags.text ?? [], regex: flags.regex ?? [], stable: flags.stable, ready: flags.ready, exit: flags.exit, timeout: flags.timeout },
    );
    if (conditions === null && flags.commandDone) conditions = { timeoutMs: flags.timeout ?? DEFAULT_WAIT_TIMEOUT_MS };
    if (conditions === null) {
      throw new UsageError("pty wait needs a condition: --text STR, --regex RE, --stable DUR, --ready, --exit or --command-done");
    }
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
        ...(flags.commandDone ? { commandDone: true } : {}),
      }),
    );
    printWait(this.process.stdout, this.process.stderr, reply, flags.json);
  }, sessionOnly(this, session));
}
