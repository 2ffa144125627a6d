// Recording a `run --tty` job (`--record FILE`): the job's terminal output
// from its first byte, what is typed at it (with --record-input) and its
// size changes, until the job is done. The file is made before the job
// starts, so a bad path refuses the run instead of losing the recording.
import type { Job } from "../../jobs/job.ts";
import { CastRecorder, type RecordingSpec } from "../../pty/cast-recorder.ts";
import { commandTitle } from "../../pty/session-recording.ts";
import { AgentError } from "../protocol/messages.ts";

const recorders = new WeakMap<Job, CastRecorder>();

/** The recording of a job, for its terminal to report input and resizes to. */
export function jobRecorder(job: Job): CastRecorder | undefined {
  return recorders.get(job);
}

/** Creates the file and writes the header; AgentError bad_request when it cannot be made. */
export async function prepareJobRecording(spec: RecordingSpec, argv: readonly string[], cols: number, rows: number, term: string): Promise<CastRecorder> {
  let recorder: CastRecorder;
  try {
    recorder = await CastRecorder.create(spec);
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    throw new AgentError("bad_request", `cannot write the recording ${spec.path}: ${typeof code === "string" ? code : String(error)}`);
  }
  recorder.begin({ cols, rows, term, title: commandTitle(argv) });
  return recorder;
}

/** Follows the job until it is done; call before any of its output is handed out. */
export function recordJob(job: Job, recorder: CastRecorder): void {
  recorders.set(job, recorder);
  const offOutput = job.onOutput((bytes) => recorder.output(bytes));
  const offChange = job.onChange((change) => {
    if (change !== "done") return;
    offOutput();
    offChange();
    void recorder.end();
  });
  if (job.state === "done") void recorder.end();
}
