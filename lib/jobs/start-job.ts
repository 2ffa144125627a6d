// Starting a job: check the program and directory first (127/126 with a
// message naming it), open the bounded store, pick the backend (the guardian
// when built; otherwise the process group, which cannot do a PTY job), and
// enter the job in the table. Everything that can be refused is refused
// before anything runs.
import { BoundedStore } from "../output/bounded-store.ts";
import { locateGuardian, missingGuardian } from "../native/guardian-binary.ts";
import { checkWorkingDirectory, resolveExecutable } from "../spawn/lookup.ts";
import { SpawnError } from "../spawn/spawn-error.ts";
import { startGroupJob } from "./group-job.ts";
import { startGuardianJob } from "./guardian-job.ts";
import { Job } from "./job.ts";
import type { JobLaunch, JobProcess } from "./job-process.ts";
import type { JobTable } from "./job-table.ts";

/** A job to start: the launch plus its name and output limits. */
export interface JobRequest extends Omit<JobLaunch, "argv"> {
  readonly argv: readonly string[];
  readonly name: string | null;
  readonly headBytes: number;
  readonly maxBytes: number;
  readonly spill: string | null;
  /**
   * Gets the job's output from its first byte. Output can arrive before
   * startJob resolves, and a store with no head keeps none of it to replay.
   */
  readonly firstOutputListener?: (bytes: Uint8Array) => void;
}

/** The request cannot be run here (name taken, no PTY backend); the message says what would do. */
export class JobRefusedError extends Error {
  override readonly name = "JobRefusedError";
  constructor(readonly code: "name_taken" | "spawn_failed", message: string) {
    super(message);
  }
}

/** Starts a job and adds it to `table`; throws SpawnError, SpillError or JobRefusedError. */
export async function startJob(table: JobTable, request: JobRequest): Promise<Job> {
  const [program, ...args] = request.argv;
  if (program === undefined || program === "") throw new SpawnError("not-found", "no command given; put it after --");
  if (request.name !== null) {
    const holder = table.nameInUse(request.name);
    if (holder !== undefined) {
      throw new JobRefusedError("name_taken", `a job named "${request.name}" exists (%${holder.id}); reap it or choose another --name`);
    }
  }
  checkWorkingDirectory(request.cwd);
  resolveExecutable(program, request.env["PATH"], request.cwd);
  const guardian = locateGuardian();
  if (!guardian.built && request.mode === "pty") {
    throw new JobRefusedError("spawn_failed", `--tty jobs need the guardian, and ${missingGuardian(guardian)}`);
  }
  const store = await BoundedStore.open({
    headBytes: request.headBytes,
    tailBytes: request.maxBytes,
    spillPath: request.spill ?? undefined,
  });
  const id = table.nextId();
  const { firstOutputListener, ...launchFields } = request;
  const launch: JobLaunch = { ...launchFields, argv: [program, ...args] };
  let process: JobProcess;
  try {
    // The agent's jobs outlive the agent (issue 11): what a new agent needs to take one over is recorded.
    const facts = {
      name: request.name,
      mode: request.mode,
      spill: store.spillPath,
      headBytes: request.headBytes,
      maxBytes: request.maxBytes,
      graceMs: request.graceMs,
      startedAt: Date.now(),
    };
    process = guardian.built ? await startGuardianJob(launch, id, guardian.path, facts) : await startGroupJob(launch);
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  const job = new Job({ id, name: request.name, argv: request.argv, mode: request.mode, store, process, ...(firstOutputListener ? { firstOutputListener } : {}) });
  table.add(job);
  return job;
}
