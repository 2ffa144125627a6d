// `wait` with `commandDone`: until the session's hooked shell finishes a
// command (its finish mark and the prompt after it), raced with the wait's
// other conditions when it has any; the first to hold wins.
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type WaitReply, type WaitRequest } from "../../protocol/messages.ts";
import type { SessionEntry } from "../session-registry.ts";
import { screenView } from "../screen-view.ts";
import { formatDuration } from "../../../core/duration.ts";
import { waitOn } from "./wait.ts";

/** Waits for the command's end (or another condition); on timeout throws AgentError timeout. */
export async function waitCommandDone(ctx: AgentContext, entry: SessionEntry, request: WaitRequest, signal?: AbortSignal): Promise<WaitReply> {
  const session = entry.session;
  if (session.commandDone === undefined) throw new AgentError("no_shell_integration", `session ${entry.id} has no shell integration: --command-done needs a hooked shell`);
  const timeoutMs = request.timeoutMs ?? ctx.defaults.waitTimeoutMs;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort);
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  const others = (request.text ?? []).length > 0 || (request.regex ?? []).length > 0 || request.stableMs !== undefined || request.ready === true || request.exit === true;
  try {
    const after = request.after ?? (request.new === true ? "next" : "now");
    const done = session.commandDone(entry.id, after, stop.signal).then((command) => ({ command }));
    const start = request.after !== undefined ? { after: request.after } : request.new === true ? { new: true } : {};
    const other = others ? waitOn(ctx, entry, { ...request, timeoutMs }, start, stop.signal).then((reply) => ({ reply })) : new Promise<never>(() => {});
    const first = await Promise.race([done, other]);
    if ("reply" in first) return first.reply;
    if (first.command === null && stop.signal.aborted) {
      throw new AgentError("timeout", `no command finished within ${formatDuration(timeoutMs)} in session ${entry.id}`);
    }
    const command = first.command;
    return {
      fired: "command",
      ...(command !== null ? { command: { status: command.status, from: command.from, to: command.to, cwd: command.cwd } } : {}),
      position: session.position(),
      windowExceeded: false,
      screen: await screenView(entry, { peek: true }),
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    stop.abort();
  }
}
