// `corral pty open`: checks the values here (exit 2 before the agent is
// even started), builds the caller's scrubbed environment and asks the
// agent to start the program.
import process from "node:process";
import path from "node:path";
import type { CorralContext } from "./context.ts";
import type { OpenFlags } from "./pty-flags.ts";
import { intFlag } from "./pty-values.ts";
import { replyBody, reportFailure, withAgent } from "./agent-reach.ts";
import { UsageError } from "./exit-status.ts";
import { loadConfig } from "../lib/config/load.ts";
import { EnvAssignmentError, parseEnvAssignment } from "../lib/env/assignment.ts";
import { sessionEnvironment } from "../lib/agent/client/open-environment.ts";
import { DEFAULT_SCROLLBACK } from "../lib/pty/screen-size.ts";
import { recordSpecOf } from "./record-spec.ts";

/** Opens a session and prints its id (or the JSON facts). */
export async function ptyOpenAction(this: CorralContext, flags: OpenFlags, ...argv: string[]): Promise<void> {
  let request;
  try {
    const config = await loadConfig(this.process.env);
    const set = (flags.env ?? []).map((text) => {
      try {
        return parseEnvAssignment(text);
      } catch (error) {
        throw error instanceof EnvAssignmentError ? new UsageError(error.message) : error;
      }
    });
    request = {
      op: "open" as const,
      argv,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      cols: intFlag("--cols", flags.cols, 1, 1000) ?? config.terminal.cols,
      rows: intFlag("--rows", flags.rows, 1, 1000) ?? config.terminal.rows,
      cwd: path.resolve(flags.cwd ?? process.cwd()),
      env: sessionEnvironment(this.process.env, config, set, flags.term),
      scrollback: intFlag("--scrollback", flags.scrollback, 0, 10_000) ?? DEFAULT_SCROLLBACK,
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
