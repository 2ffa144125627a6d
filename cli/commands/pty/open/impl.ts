// `corral pty open`: checks the values here (exit 2 before the agent is
// even started), builds the caller's scrubbed environment and asks the
// agent to start the program.
import process from "node:process";
import path from "node:path";
import type { CorralContext } from "../../../shared/context.ts";
import type { OpenFlags } from "../flags.ts";
import { envFlag } from "../../../shared/flag-parsers.ts";
import { replyBody, reportFailure, withAgent } from "../../../shared/agent-reach.ts";
import { wantsRemote } from "../../../shared/socket-flag.ts";
import { loadConfig } from "../../../../lib/config/load.ts";
import { sessionEnvironment } from "../../../../lib/agent/client/open-environment.ts";
import { DEFAULT_SCROLLBACK } from "../../../../lib/pty/screen-size.ts";
import { recordSpecOf } from "../../../shared/record/spec.ts";
import { printWait, waitFlagConditions } from "../wait-conditions.ts";
import type { WaitConditions, WaitReply } from "../../../../lib/agent/protocol/messages.ts";
import { CorralError } from "../../../../lib/core/corral-error.ts";
import { announceWithheld } from "../../../shared/env-dropped-note.ts";

/** Opens a session and prints its id (or the JSON facts); with --wait-*, returns once the condition holds. */
export async function ptyOpenAction(this: CorralContext, flags: OpenFlags, ...argv: string[]): Promise<void> {
  let request;
  let wait: WaitConditions | null;
  let withheld: readonly string[] = [];
  let quiet = false;
  try {
    wait = await waitFlagConditions(flags);
    const config = await loadConfig(this.process.env);
    quiet = flags.quiet ?? config.quiet;
    const set = (flags.env ?? []).map(envFlag);
    const remote = wantsRemote(this, flags);
    request = {
      op: "open" as const,
      argv,
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      cols: flags.cols ?? config.terminal.cols,
      rows: flags.rows ?? config.terminal.rows,
      // Remote: only what was set here travels; the far side adds its own environment and home (connect/framed-relay.ts).
      ...(remote
        ? { ...(flags.cwd === undefined ? {} : { cwd: flags.cwd }), env: Object.fromEntries([...set.map(({ name, value }) => [name, value]), ...(flags.term === undefined ? [] : [["TERM", flags.term]])]) }
        : { cwd: path.resolve(this.process.cwd ?? process.cwd(), flags.cwd ?? "."), env: sessionEnvironment(this.process.env, config, set, flags.term, (names) => (withheld = names)) }),
      scrollback: flags.scrollback ?? DEFAULT_SCROLLBACK,
      ...(flags.shellIntegration ? {} : { shellIntegration: false }),
    };
    const record = recordSpecOf(flags, !remote);
    if (record !== undefined) request = { ...request, record };
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  const conditions = wait;
  const how = "--env NAME=VALUE or the config key scrub: false";
  const remote = wantsRemote(this, flags);
  await withAgent(this, flags, async (client) => {
    // Remote: the environment is built there; its plan names what it withholds, said once the session is open.
    const far = remote
      ? import("../../../shared/remote-env-plan.ts").then(({ announceRemoteEnv }) =>
        announceRemoteEnv(this, client, flags, request, { explain: false, quiet: true, names: !quiet })
      )
      : null;
    far?.catch(() => {});
    const opened = replyBody(await client.call(request));
    if (far !== null) withheld = await far;
    announceWithheld(this, withheld, quiet, how);
    if (conditions === null) {
      this.process.stdout.write(flags.json ? `${JSON.stringify(opened)}\n` : `${opened.session.id}\n`);
      return;
    }
    // The id first, so a script can close the session whatever the wait says.
    if (!flags.json) this.process.stdout.write(`${opened.session.id}\n`);
    // From position 0: whatever the program wrote since it started counts.
    let waited: WaitReply;
    try {
      waited = replyBody(await client.call({ op: "wait", session: opened.session.id, ...conditions, after: 0 }));
    } catch (error) {
      // --json: one object still, the error's, naming the session that stays open.
      if (flags.json && error instanceof CorralError) {
        this.process.stdout.write(`${JSON.stringify({ ok: false, error: { code: error.code, message: error.message }, session: opened.session })}\n`);
      }
      throw error;
    }
    if (flags.json) this.process.stdout.write(`${JSON.stringify({ ...opened, wait: waited })}\n`);
    else if (waited.windowExceeded) printWait({ write: () => true }, this.process.stderr, waited, false);
  });
}
