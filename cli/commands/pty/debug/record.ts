// `corral pty record`: starts (or stops) the recording of an open session.
import type { CorralContext } from "../../../shared/context.ts";
import type { RecordFlags } from "../flags.ts";
import { replyBody, reportFailure, withAgent } from "../../../shared/agent-reach.ts";
import { UsageError } from "../../../shared/exit-status.ts";
import { recordingSpec } from "../../../shared/record/spec.ts";
import { wantsRemote } from "../../../shared/socket-flag.ts";
import type { RecordRequest } from "../../../../lib/agent/protocol/messages.ts";

/** Asks the agent to record; prints where the recording goes. */
export async function ptyRecordAction(this: CorralContext, flags: RecordFlags, session: string, file: string | undefined): Promise<void> {
  let request: RecordRequest;
  try {
    if (flags.stop) {
      if (file !== undefined || flags.max !== undefined || flags.input) throw new UsageError("--stop takes no FILE, --max or --input: corral pty record ID --stop");
      request = { op: "record", session, stop: true };
    } else {
      if (file === undefined) throw new UsageError("give the file to record into, e.g. corral pty record 1 session.cast (or --stop)");
      request = { op: "record", session, record: recordingSpec(file, flags.max, flags.input, !wantsRemote(this, flags)) };
    }
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  await withAgent(this, flags, async (client) => {
    const reply = replyBody(await client.call(request));
    if (flags.json) this.process.stdout.write(`${JSON.stringify(reply)}\n`);
    else if (reply.recording === null) this.process.stdout.write(`session ${reply.session.id}: no recording\n`);
    else if (flags.stop) this.process.stdout.write(`${reply.recording.path}: ${reply.recording.bytes} bytes\n`);
    else this.process.stdout.write(`${reply.recording.path}\n`);
  });
}
