// A connection that is a job's terminal (run --tty, fg): the job's output
// goes out as raw byte frames, byte frames coming in are typed into its PTY,
// JSON frames carry window-size changes. When the job stops (Ctrl-Z) or
// ends, one JSON event says so and the connection is closed; the job stays
// in the agent. A terminal that cannot keep up pauses the job rather than
// letting the agent buffer without bound.
import type { Socket } from "node:net";
import { bytesFrame, eventFrame, Tag, type Frame } from "../protocol/frames.ts";
import type { Job } from "../../jobs/job.ts";
import type { JobTable } from "../../jobs/job-table.ts";
import { clampSize } from "./agent-context.ts";
import type { JobAttachEvent } from "../protocol/operations.ts";
import { parseAttachedFrame } from "../protocol/validation.ts";
import { jobRecorder } from "./job-recording.ts";

/** Unsent bytes above which the job is paused until the terminal drains. */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** What a connection in attach mode hands its frames to (sessions and jobs alike). */
export interface AttachMode {
  onFrame(frame: Frame): void;
  detach(): void;
}

/** Wires one connection to one job as its terminal. */
export class JobTerminal implements AttachMode {
  #unsubscribe: Array<() => void> = [];
  #paused = false;

  /**
   * `from`: replay the stored output from this offset first. `early`: a job
   * just started hands the chunks it produced before this terminal existed
   * instead (its store may keep none of them).
   */
  constructor(readonly job: Job, readonly table: JobTable, readonly socket: Socket, from: number, readonly graceMs: number, early?: readonly Uint8Array[]) {
    job.attached = true;
    if (early === undefined) this.#replay(from);
    else for (const bytes of early) this.#send(bytes);
    this.#unsubscribe.push(job.onOutput((bytes) => this.#send(bytes)));
    this.#unsubscribe.push(job.onChange((change) => {
      if (change === "stopped") this.#end("job-stopped");
      if (change === "done") this.#end("job-done");
    }));
    if (job.state === "done") this.#end("job-done");
  }

  onFrame(frame: Frame): void {
    const { job } = this;
    if (frame.tag === Tag.bytes) {
      if (job.state !== "done" && job.mode === "pty") {
        job.process.write(frame.body);
        jobRecorder(job)?.input(frame.body);
      }
      return;
    }
    // A garbled control frame from a terminal is ignored, not fatal.
    const message = parseAttachedFrame(frame.body);
    if (message === null || job.state === "done") return;
    if (message.op === "job-signal") {
      // Ctrl-Z at a terminal that is not the job's own (a pipe job in fg): stop it, as a shell would.
      if (message.signal === "SIGTSTP") void job.process.signal("SIGSTOP", "tree").catch(() => {});
      // The person's corral got SIGTERM/SIGHUP/SIGINT/SIGQUIT: the foreground job goes, whole
      // tree, that signal first (so corral can die of the same signal when the job did).
      else void job.process.terminate(this.graceMs, message.signal);
    } else {
      job.process.resize(clampSize(message.cols), clampSize(message.rows));
      jobRecorder(job)?.resize(clampSize(message.cols), clampSize(message.rows));
    }
  }

  detach(): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.job.attached = false;
    if (this.#paused) {
      this.#paused = false;
      this.job.process.resume();
    }
  }

  #replay(from: number): void {
    let offset = from;
    while (offset < this.job.store.totalBytes) {
      const read = this.job.store.read(offset, 1024 * 1024);
      if (read.kind === "data") {
        this.#send(read.bytes);
        offset = read.nextOffset;
      } else if (read.kind === "lost") {
        offset = read.retainedFrom;
      } else {
        break;
      }
    }
  }

  #send(bytes: Uint8Array): void {
    const { socket } = this;
    if (socket.destroyed) return;
    socket.write(bytesFrame(bytes));
    if (!this.#paused && socket.writableLength > MAX_UNSENT_BYTES) {
      this.#paused = true;
      this.job.process.pause();
      socket.once("drain", () => {
        if (!this.#paused) return;
        this.#paused = false;
        this.job.process.resume();
      });
    }
  }

  #end(event: JobAttachEvent["event"]): void {
    this.detach();
    // Like a shell's foreground job: one that ends while held is reported here, not kept.
    if (event === "job-done") this.table.retire(this.job);
    const body: JobAttachEvent = { event, job: this.table.info(this.job) };
    if (!this.socket.destroyed && this.socket.writable) {
      this.socket.write(eventFrame(body));
    }
    this.socket.end();
  }
}
