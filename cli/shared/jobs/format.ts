// How jobs read in a terminal: shell-like rows (`[1]+  running ...`), the
// `[N]+  Stopped  CMD` line after Ctrl-Z (exits in words: lib/core/exit-words.ts).
import type { JobInfo } from "../../../lib/jobs/job-info.ts";
import { describeExit } from "../../../lib/core/exit-words.ts";
import { commandLine } from "../command-line.ts";
export { commandLine };

/** `running`, `stopped`, or `done (exit 0)`. */
export function describeState(job: JobInfo): string {
  return job.state === "done" ? `done (${describeExit(job.exit)})` : job.state;
}

/** Bytes for people: 512 B, 12.3 KiB, 4.0 MiB. */
export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `[2]-` : the id with its current/previous mark, padded like a shell's. */
export function jobTag(job: JobInfo): string {
  return `[${job.number}]${job.mark ?? " "}`;
}

/** One row of `corral jobs`. */
export function jobRow(job: JobInfo): string {
  const state = describeState(job).padEnd(24);
  const name = job.name === null ? "" : ` (${job.name})`;
  return `${jobTag(job)}  ${state}pid ${String(job.pid).padEnd(8)}${humanBytes(job.bytes).padEnd(11)}${commandLine(job.argv)}${name}`;
}

/** What a shell prints when a job is stopped: `[N]+  Stopped  CMD`. */
export function stoppedLine(job: JobInfo): string {
  return `[${job.number}]${job.mark ?? " "}  Stopped  ${commandLine(job.argv)}`;
}
