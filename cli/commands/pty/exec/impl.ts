// `corral pty exec`: asks the agent to run one command line in a session's
// hooked shell; prints the output (or the JSON reply) and exits with the
// command's own status, as `ssh host cmd` does.
import path from "node:path";
import type { CorralContext } from "../../../shared/context.ts";
import type { ExecFlags } from "../flags.ts";
import { replyBody, sessionOnly, withAgent } from "../../../shared/agent-reach.ts";
import { writeAll } from "../../collect/report.ts";
import { wantsRemote } from "../../../shared/socket-flag.ts";

/** Runs the command line and mirrors its status. */
export async function ptyExecAction(this: CorralContext, flags: ExecFlags, session: string, ...words: string[]): Promise<void> {
  const request = {
    op: "exec" as const,
    session,
    command: words.join(" "),
    ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
    ...(flags.interrupt ? { interrupt: true } : {}),
    ...(flags.grace !== undefined ? { graceMs: flags.grace } : {}),
    ...(flags.headBytes !== undefined ? { headBytes: flags.headBytes } : {}),
    ...(flags.maxBytes !== undefined ? { maxBytes: flags.maxBytes } : {}),
    ...(flags.headLines !== undefined ? { headLines: flags.headLines } : {}),
    ...(flags.tailLines !== undefined ? { tailLines: flags.tailLines } : {}),
    // Remote: the spill is written there, a relative path resolved there (lib/agent/client/remote/far-paths.ts).
    ...(flags.spill !== undefined ? { spill: wantsRemote(this, flags) ? flags.spill : path.resolve(flags.spill) } : {}),
  };
  await withAgent(this, flags, async (client) => {
    const reply = replyBody(await client.call(request));
    const text = flags.json ? `${JSON.stringify(reply)}\n` : reply.output;
    await writeAll(this.process.stdout as NodeJS.WriteStream, [new TextEncoder().encode(text)]);
    this.process.exitCode = reply.status;
  }, sessionOnly(this, session));
}
