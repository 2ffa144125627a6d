// The agent's last duty toward its jobs when it stops: every job still
// running or stopped is terminated (its whole tree), and waited for.
import type { JobTable } from "./job-table.ts";
import { jobSettled } from "./job-wait.ts";

/** Terminates every live job and waits (bounded) for each to be done. */
export async function stopAllJobs(table: JobTable, graceMs: number, log: (line: string) => void): Promise<void> {
  await Promise.all(table.all().map(async (job) => {
    if (job.state === "done") return;
    const receipt = await job.process.terminate(graceMs);
    if (receipt.status !== "confirmed") log(`job %${job.id}: ${receipt.reason ?? "not confirmed gone"}`);
    await jobSettled(job, graceMs + 5000);
  }));
}
