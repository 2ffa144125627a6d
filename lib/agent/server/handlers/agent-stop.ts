// `agent-stop`: replies first, then the agent stops. What runs is ended
// (sessions closed, job trees terminated), kept for the next agent (the
// guardians outlive this one and wait: issue 11), or the stop is refused
// while anything runs. The reply names what runs, by id.
import type { AgentContext } from "../agent-context.ts";
import type { ReplyBodies } from "../../protocol/messages.ts";
import type { AgentStopRequest } from "../../protocol/operations.ts";
import { jobLabel } from "../../../jobs/job-info.ts";

/** Schedules the shutdown (unless refused); the reply lists the running sessions and jobs. */
export function handleAgentStop(ctx: AgentContext, request: AgentStopRequest): ReplyBodies["agent-stop"] {
  const mode = request.running ?? "end";
  const sessions = ctx.registry.all().filter((e) => e.session.alive()).map((e) => (e.name === null ? e.id : `${e.id} (${e.name})`));
  const jobs = ctx.jobs.all().filter((j) => j.state !== "done").map((j) => (j.name === null ? jobLabel(j.id) : `${jobLabel(j.id)} (${j.name})`));
  const running = { sessions, jobs };
  if (mode === "refuse" && sessions.length + jobs.length > 0) return { stopping: false, sessions: sessions.length, running };
  ctx.requestStop(mode === "keep");
  return { stopping: true, sessions: sessions.length, running };
}
