// `wait`: blocks this request (not the connection, not the agent) until a
// condition holds or the timeout passes.
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type ReplyBodies, type WaitRequest } from "../protocol.ts";
import { screenView } from "../screen-view.ts";
import { formatMs } from "../format-ms.ts";
import type { ExitFacts } from "../../spawn/exit-facts.ts";

/** "status 3", "killed by SIGSEGV": for the one-line message. */
function describeExit(exit: ExitFacts | null): string {
  if (exit === null) return "status unknown";
  return exit.signal !== null ? `killed by ${exit.signal}` : `status ${exit.code}`;
}

/** Waits; on timeout throws AgentError timeout (the CLI exits 124). */
export async function handleWait(
  ctx: AgentContext,
  request: WaitRequest,
  signal?: AbortSignal,
): Promise<ReplyBodies["wait"]> {
  const entry = ctx.registry.get(request.session);
  const noCondition = request.text === undefined && request.regex === undefined && request.stableMs === undefined &&
    request.exit !== true;
  if (noCondition) {
    throw new AgentError("bad_request", "wait needs at least one condition: text, regex, stableMs or exit");
  }
  const timeoutMs = request.timeoutMs ?? ctx.defaults.waitTimeoutMs;
  const fired = await entry.session.wait({
    ...(request.text !== undefined ? { text: request.text } : {}),
    ...(request.regex !== undefined ? { regex: request.regex } : {}),
    ...(request.stableMs !== undefined ? { stableMs: request.stableMs } : {}),
    // Always watch the exit: once the program is gone the screen cannot
    // change, so a wait for anything else would only run into its timeout.
    exit: true,
    ...(request.new !== undefined ? { new: request.new } : {}),
    timeoutMs,
    ...(signal !== undefined ? { signal } : {}),
  });
  if (fired === null) {
    throw new AgentError("timeout", `no condition was met within ${formatMs(timeoutMs)} on session ${entry.id}`);
  }
  if (fired === "exit" && request.exit !== true) {
    throw new AgentError(
      "session_exited",
      `session ${entry.id} exited (${describeExit(entry.session.exitFacts())}) before the condition was met`,
    );
  }
  return { fired, screen: await screenView(entry, { peek: true }) };
}
