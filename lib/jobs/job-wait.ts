// Waiting for a job's next state change with a bound, so a reply can carry
// the state a person expects (bg: running) without hanging on a job whose
// backend reports no events.
import type { Job, JobChange } from "./job.ts";

/** Resolves when `job` reports `change` (true) or after `ms` (false). */
export function jobChange(job: Job, change: JobChange, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(false);
    }, ms);
    const stop = job.onChange((c) => {
      if (c !== change && c !== "done") return;
      clearTimeout(timer);
      stop();
      resolve(c === change);
    });
  });
}

/** Resolves once the job is settled (done, store closed) or after `ms`; true when settled. */
export function jobSettled(job: Job, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([job.settled.then(() => true as const), expired]).finally(() => clearTimeout(timer));
}
