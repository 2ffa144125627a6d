// `corral pty wait`: blocks until a condition holds; prints which fired;
// exit 124 when --timeout passes first.
import type { CorralContext } from "./context.ts";
import type { WaitFlags } from "./pty-flags.ts";
import { durationFlag } from "./pty-values.ts";
import { replyBody, reportFailure, withAgent } from "./agent-reach.ts";
import { UsageError } from "./exit-status.ts";

/** The timeout when none is given: long enough for slow programs, short enough to notice a hang. */
export const DEFAULT_WAIT_TIMEOUT_MS = 60_000;

/** Waits on a session. */
export async function ptyWaitAction(this: CorralContext, flags: WaitFlags, session: string): Promise<void> {
  let timeoutMs: number;
  let stableMs: number | undefined;
  try {
    if (flags.text === undefined && flags.regex === undefined && flags.stable === undefined && !flags.exit) {
      throw new UsageError("pty wait needs a condition: --text STR, --regex RE, --stable DUR or --exit");
    }
    if (flags.regex !== undefined) checkRegex(flags.regex);
    timeoutMs = durationFlag("--timeout", flags.timeout) ?? DEFAULT_WAIT_TIMEOUT_MS;
    stableMs = durationFlag("--stable", flags.stable);
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  await withAgent(this, flags, async (client) => {
    const reply = replyBody(
      await client.call({
        op: "wait",
        session,
        ...(flags.text !== undefined ? { text: flags.text } : {}),
        ...(flags.regex !== undefined ? { regex: flags.regex } : {}),
        ...(stableMs !== undefined ? { stableMs } : {}),
        ...(flags.exit ? { exit: true } : {}),
        ...(flags.new ? { new: true } : {}),
        timeoutMs,
      }),
    );
    this.process.stdout.write(flags.json ? `${JSON.stringify(reply)}\n` : `${reply.fired}\n`);
  });
}

function checkRegex(source: string): void {
  try {
    new RegExp(source);
  } catch (error) {
    throw new UsageError(`--regex ${JSON.stringify(source.slice(0, 60))} is not a valid regular expression: ${(error as Error).message}`);
  }
}
