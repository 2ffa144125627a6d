// `wait`: blocks this request (not the connection, not the agent) until a
// condition holds or the timeout passes. `send` with `wait` uses the same.
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type ReplyBodies, type WaitConditions, type WaitReply, type WaitRequest } from "../../protocol/messages.ts";
import { screenView } from "../screen-view.ts";
import type { SessionEntry } from "../session-registry.ts";
import { formatDuration } from "../../../core/duration.ts";
import { describeExit } from "../../../core/exit-words.ts";
import { waitCommandDone } from "./wait-command.ts";

/** Waits; on timeout throws AgentError timeout (the CLI exits 124). */
export function handleWait(ctx: AgentContext, request: WaitRequest, signal?: AbortSignal): Promise<ReplyBodies["wait"]> {
  const entry = ctx.registry.get(request.session);
  if (request.commandDone === true) return waitCommandDone(ctx, entry, request, signal);
  const start = request.after !== undefined ? { after: request.after } : request.new === true ? { new: true } : {};
  return waitOn(ctx, entry, request, start, signal);
}

/**
 * Runs one wait on `entry`. A session that exits before a condition holds
 * ends the wait at once: with `exit` asked for that is the answer, else the
 * error session_exited (output it wrote before exiting still counts).
 */
export async function waitOn(
  ctx: AgentContext,
  entry: SessionEntry,
  conditions: WaitConditions,
  start: { readonly after?: number; readonly new?: boolean },
  signal?: AbortSignal,
): Promise<WaitReply> {
  const noCondition = (conditions.text ?? []).length === 0 && (conditions.regex ?? []).length === 0 &&
    conditions.stableMs === undefined && conditions.exit !== true && conditions.ready !== true;
  if (noCondition) {
    throw new AgentError("bad_request", "wait needs at least one condition: text, regex, stableMs, ready or exit");
  }
  const timeoutMs = conditions.timeoutMs ?? ctx.defaults.waitTimeoutMs;
  const outcome = await entry.session.wait({
    ...(conditions.text !== undefined ? { text: conditions.text } : {}),
    ...(conditions.regex !== undefined ? { regex: conditions.regex } : {}),
    ...(conditions.stableMs !== undefined ? { stableMs: conditions.stableMs } : {}),
    ...(conditions.ready === true ? { ready: true } : {}),
    exit: true,
    ...start,
    timeoutMs,
    ...(signal !== undefined ? { signal } : {}),
  });
  if (outcome.fired === "timeout") {
    throw new AgentError("timeout", `no condition was met within ${formatDuration(timeoutMs)} on session ${entry.id}`);
  }
  if (outcome.fired === "exit" && conditions.exit !== true) {
    throw new AgentError(
      "session_exited",
      `session ${entry.id} exited (${describeExit(entry.session.exitFacts())}) before the condition was met`,
    );
  }
  return {
    fired: outcome.fired,
    ...(outcome.match !== undefined ? { match: outcome.match } : {}),
    position: outcome.position,
    windowExceeded: outcome.windowExceeded,
    screen: await screenView(entry, { peek: true }),
  };
}
