// `record`: starts recording a session that is already open (or, with
// `stop`, ends its recording). The file is written by the agent.
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type RecordRequest, type ReplyBodies } from "../../protocol/messages.ts";

/** Starts or stops the session's recording; replies with its status. */
export async function handleRecord(ctx: AgentContext, request: RecordRequest): Promise<ReplyBodies["record"]> {
  const entry = ctx.registry.get(request.session);
  const { session } = entry;
  if (session.record === undefined) throw new AgentError("bad_request", `session ${entry.id} cannot be recorded`);
  // `session` is the session object, as in every other reply that names one.
  if (request.stop === true) return { session: ctx.registry.info(entry), recording: await session.record(null) };
  if (!session.alive()) {
    throw new AgentError("session_exited", `session ${entry.id} has exited; there is nothing more to record (pty screen --ansi shows its last screen)`);
  }
  const recording = await session.record(request.record ?? null);
  ctx.log(`session ${entry.id} recording started`);
  return { session: ctx.registry.info(entry), recording };
}
