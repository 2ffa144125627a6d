// command-line: the native client's request (command-line-door.ts says
// why). Refused with `not_served` before any output, so the client can
// still hand the command line to the JavaScript CLI. A `connect` that
// dropped its stdin and stdout at the agent (`adopt`) is answered on them
// (adopted-stdio.ts); when they cannot be taken it is served as before, the
// client relaying its lines.
import type { AgentContext } from "../agent-context.ts";
import type { CommandInput, CommandOutput, CommandRequests, ConnectionInput } from "../command-line-door.ts";
import { AgentError, type CommandLineRequest, type ReplyBodies } from "../../protocol/messages.ts";
import { AdoptedStdio } from "../adopted-stdio.ts";

export async function handleCommandLine(
  ctx: AgentContext,
  request: CommandLineRequest,
  output: CommandOutput,
  signal: AbortSignal,
  input: ConnectionInput,
  requests: CommandRequests,
): Promise<ReplyBodies["command-line"]> {
  // Taken first, whatever follows: a drop left waiting would hold the client's pipes open.
  const dropped = request.adopt !== undefined ? (ctx.takeDropped?.(request.adopt) ?? null) : null;
  const door = ctx.commandLines;
  let refusal: string | null = null;
  // An agent whose files were replaced would run the old build's code, or fail to load it (install-watch.ts).
  if (ctx.filesReplaced()) refusal = "the files this agent was started from were replaced (an upgrade or a rebuild)";
  // A client of another install (another version beside this one) gets its own build's code from its JavaScript CLI.
  else if (request.install !== undefined && ctx.installRoot !== null && request.install !== ctx.installRoot) {
    refusal = `a client of another install of corral; this agent is ${ctx.installRoot}'s`;
  } else refusal = door === undefined ? "this agent was started without the command-line door" : door.refusal(request);
  if (refusal !== null || door === undefined) {
    dropped?.close();
    throw new AgentError("not_served", refusal ?? "not served");
  }
  if (dropped === null) return { status: await door.run(request, output, signal, input, requests) };
  const adopted = AdoptedStdio.adopt(dropped, output, signal);
  if (typeof adopted === "string") {
    ctx.log(`a connect's stdin and stdout were not taken (${adopted}); its client relays them`);
    return { status: await door.run(request, output, signal, input, requests) };
  }
  input.adopted();
  const status = await door.run(request, adopted.output, signal, adopted as CommandInput, requests, adopted);
  await adopted.finish();
  return { status: status === 0 ? adopted.status : status };
}
