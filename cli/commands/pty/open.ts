// `corral pty open`: checks the values here (exit 2 before the agent is
// even started), builds the caller's scrubbed environment and asks the
// agent to start the program.
import process from "node:process";
import path from "node:path";
import type { CorralContext } from "../../shared/context.ts";
import type { OpenFlags } from "./flags.ts";
import { envFlag } from "../../shared/flag-parsers.ts";
import { replyBody, reportFailure, withAgent } from "../../shared/agent-reach.ts";
import { loadConfig } from "../../../lib/config/load.ts";
import { sessionEnvironment } from "../../../lib/agent/client/open-environment.ts";
import { DEFAULT_SCROLLBACK } from "../../../lib/pty/screen-size.ts";
import { recordSpecOf } from "../../shared/record/spec.ts";

/** Opens a session and prints its id (or the JSON facts). */
export async function ptyOpenAction(this: CorralContext, flags: OpenFlags, ...argv: string[]): Promise<void> {
  let request;
  try {
    const config = await loadConfig(this.process.env);
    const set = (flags.env ?? []).map(envFlag);
    request = {
      op: "open" as const,
      argv,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      cols: flags.cols ?? config.terminal.cols,
      rows: flags.rows ?? config.terminal.rows,
      cwd: path.resolve(flags.cwd ?? process.cwd()),
      env: sessionEnvironment(this.process.env, config, set, flags.term),
      scrollback: flags.scrollback ?? DEFAULT_SCROLLBACK,
    };
    const record = recordSpecOf(flags);
    if (record !== undefined) request = { ...request, record };
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  await withAgent(this, flags, async (client) => {
    const opened = await client.call(request);
    this.process.stdout.write(flags.json ? `${JSON.stringify(replyBody(opened))}\n` : `${opened.session.id}\n`);
  });
}
