// Starting a job: check the program and directory first (127/126 with a
// message naming it), ask lib/supervise which supervisor the tree gets (the
// one decision: the guardian when built and not refused by the config or
// $CORRAL_GUARDIAN; otherwise the process group, which cannot do a PTY job),
// open the bounded store, start the tree, and enter the job in the table.
// Everything that can be refused is refused before anything runs.
// Under the guardian a job's spill file is the guardian's to write (it is
// created and checked here, then written there): the job keeps every byte
// whoever dies, the agent included.
import { BoundedStore } from "../output/bounded-store.ts";
import { SpillFile } from "../output/spill-file.ts";
import type { GuardianMode } from "../config/schema.ts";
import { checkWorkingDirectory, resolveExecutable } from "../supervise/lookup.ts";
import { SpawnError } from "../supervise/spawn-error.ts";
import { chooseSupervisor, jobSpillByGuardian, type SupervisorChoice } from "../supervise/decide.ts";
import { startSupervised } from "../supervise/start.ts";
import { Job } from "./job.ts";
import type { SupervisedTree, TreeLaunch } from "../supervise/handle.ts";
import type { JobTable } from "./job-table.ts";
import { CorralError } from "../core/corral-error.ts";

/** A job to start: the launch plus its name and output limits. */
export interface JobRequest extends Omit<TreeLaunch, "argv"> {
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
  /** The configured guardian mode (config key `guardian`); $CORRAL_GUARDIAN in the agent's environment wins. Default "auto". */
  readonly guardian?: GuardianMode;
}

/** The request cannot be run here (name taken, no PTY backend); the message says what would do. */
export class JobRefusedError extends CorralError {
  override readonly name = "JobRefusedError";
  constructor(code: "name_taken" | "spawn_failed", message: string) {
    super(code, message);
  }
}

/** Starts a job and adds it to `table`; throws SpawnError, SpillError or JobRefusedError. */
export async function startJob(table: JobTable, request: JobRequest): Promise<Job> {
  const [program] = request.argv;
  if (program === undefined || program === "") throw new SpawnError("not-found", "no command given; put it after --");
  if (request.name !== null) {
    const holder = table.nameHolder(request.name);
    if (holder !== undefined) {
      throw new JobRefusedError("name_taken", `a job named "${request.name}" exists (%${holder}); reap it or choose another --name`);
    }
  }
  checkWorkingDirectory(request.cwd);
  resolveExecutable(program, request.env["PATH"], request.cwd);
  // The name and number are held from here (nothing above awaits), so a start that overlaps this one sees them.
  const id = table.reserveId(request.name);
  try {
    return await startReserved(table, request, id);
  } catch (error) {
    table.release(id);
    throw error;
  }
}

async function startReserved(table: JobTable, request: JobRequest, id: number): Promise<Job> {
  const [program, ...args] = request.argv as [string, ...string[]];
  let choice: SupervisorChoice;
  try {
    choice = chooseSupervisor({ mode: request.mode, sweep: "on-exit", guardian: request.guardian ?? "auto" });
  } catch (error) {
    if (error instanceof SpawnError && error.failure === "backend-unavailable") throw new JobRefusedError("spawn_failed", error.message);
    throw error;
  }
  const spillByGuardian = jobSpillByGuardian(choice, request.spill !== null);
  if (spillByGuardian) await (await SpillFile.open(request.spill!)).close(); // a bad path is refused here, as for any spill
  const store = await BoundedStore.open({
    headBytes: request.headBytes,
    tailBytes: request.maxBytes,
    spillPath: request.spill ?? undefined,
    ...(spillByGuardian ? { externalSpill: true, spillWrittenAhead: true } : {}),
  });
  const { firstOutputListener, guardian: _mode, ...launchFields } = request;
  const launch: TreeLaunch = { ...launchFields, argv: [program, ...args] };
  let started: SupervisedTree;
  try {
    // The agent's jobs outlive the agent (issue 11): what a new agent needs to take one over is recorded.
    const facts = {
      name: request.name,
      mode: request.mode,
      spill: store.spillPath,
      ...(spillByGuardian ? { spillByGuardian: true } : {}),
      headBytes: request.headBytes,
      maxBytes: request.maxBytes,
      graceMs: request.graceMs,
      startedAt: Date.now(),
    };
    const onSpillStopped = (spilled: number, code: string, message: string) => store.externalSpillFailed(code, `${message} (the spill stops at byte ${spilled})`, spilled);
    started = await startSupervised(choice, { launch, jobId: id, facts, onSpillStopped });
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  const job = new Job({ id, name: request.name, argv: request.argv, mode: request.mode, store, process: started, ...(firstOutputListener ? { firstOutputListener } : {}) });
  table.add(job);
  return job;
}
