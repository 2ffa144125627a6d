// command-line: the native client's request (command-line-door.ts says
// why). Refused with `not_served` before any output, so the client can
// still hand the command line to the JavaScript CLI.
import type { AgentContext } from "../agent-context.ts";
import type { CommandInput, CommandOutput, CommandRequests } from "../command-line-door.ts";
import { AgentError, type CommandLineRequest, type ReplyBodies } from "../../protocol/messages.ts";

export async function handleCommandLine(
  ctx: AgentContext,
  request: CommandLineRequest,
  output: CommandOutput,
  signal: AbortSignal,
  input: CommandInput,
  requests: CommandRequests,
): Promise<ReplyBodies["command-line"]> {
  const door = ctx.commandLines;
  // An agent whose files were replaced would run the old build's code, or fail to load it (install-watch.ts).
  if (ctx.filesReplaced()) throw new AgentError("not_served", "the files this agent was started from were replaced (an upgrade or a rebuild)");
  // A client of another install (another version beside this one) gets its own build's code from its JavaScript CLI.
  if (request.install !== undefined && ctx.installRoot !== null && request.install !== ctx.installRoot) {
    throw new AgentError("not_served", `a client of another install of corral; this agent is ${ctx.installRoot}'s`);
  }
  const refusal = door === undefined ? "this agent was started without the command-line door" : door.refusal(request);
  if (refusal !== null || door === undefined) throw new AgentError("not_served", refusal ?? "not served");
  return { status: await door.run(request, output, signal, input, requests) };
}
