// The commands `run` started, held by this server (not the agent): a run
// is one call's tree, with `collect`'s guarantees (a timeout on the whole
// tree, exit facts, head and tail kept, every byte spilled to a file, what
// it left running named and ended). A call that reaches the wait cap
// leaves its run here under a cursor; the next call resumes the wait. When
// the client goes away, every run still going is terminated: nothing a
// model started with `run` outlives its server (jobs are for that).
import { mkdirSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";
import type { SupervisedTree, SupervisionResult } from "../../../lib/supervise/handle.ts";
import { chooseSupervisor } from "../../../lib/supervise/decide.ts";
import { endOf, startPipeTree } from "../../../lib/supervise/start.ts";
import { SpawnError } from "../../../lib/supervise/spawn-error.ts";
import { stateDirPath } from "../../../lib/agent/client/state-dir.ts";
import { liveStats } from "../../../lib/proc/stat.ts";
import type { CorralConfig } from "../../../lib/config/schema.ts";
import type { Launch } from "./launch.ts";
import { namedAfterExec, type Survivor, survivorsOf, type TreeRoots, treeRoots } from "./survivors.ts";
import { ToolError } from "./tool.ts";

/** What a run needs besides its launch. */
export interface RunLimits {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly graceMs: number;
  /** Bytes kept from each end of the output (the rest is in the spill file). */
  readonly keepBytes: number;
  readonly spill: boolean;
  /** Written to the command's stdin, then closed; null: stdin is /dev/null. */
  readonly stdin: string | null;
}

/** One run: its tree, its output, and once it ended, its facts and survivors. */
export interface Run {
  readonly id: number;
  readonly line: string;
  readonly pid: number;
  readonly startedAt: number;
  readonly store: BoundedStore;
  readonly child: SupervisedTree;
  readonly scrubbed: readonly string[];
  /** Resolves once the tree is gone and the output store is closed (spill flushed). */
  readonly ended: Promise<SupervisionResult>;
  result: SupervisionResult | null;
  /** What was alive in the tree when the program exited (and the sweep then ended). */
  survivors: readonly Survivor[];
  /** A process of the tree stopped waiting for terminal input, and corral ended the tree. */
  stoppedForInput: boolean;
}

/** This server's runs. */
export class RunRegistry {
  readonly #runs = new Map<number, Run>();
  /** Runs between their call and their tree's start: terminateAll waits for them. */
  readonly #starting = new Set<Promise<unknown>>();
  /** terminateAll was called: a run that starts from now on is ended at once. */
  #ending = false;
  #next = 1;

  constructor(private readonly env: Readonly<Record<string, string | undefined>>, private readonly config: CorralConfig) {}

  /** Starts a run; throws ToolError when the command cannot start (127/126 with the reason). */
  start(launch: Launch, limits: RunLimits): Promise<Run> {
    const starting = this.#start(launch, limits);
    this.#starting.add(starting);
    const settled = () => this.#starting.delete(starting);
    starting.then(settled, settled);
    return starting;
  }

  async #start(launch: Launch, limits: RunLimits): Promise<Run> {
    const id = this.#next++;
    const spillPath = limits.spill ? path.join(this.#spillDir(), `run-${process.pid}-${id}.log`) : undefined;
    const store = await BoundedStore.open({ headBytes: limits.keepBytes, tailBytes: limits.keepBytes, spillPath });
    let roots: TreeRoots | null = null;
    let survivors: Survivor[] = [];
    let named: Promise<void> = Promise.resolve();
    let child: SupervisedTree | undefined;
    try {
      const choice = chooseSupervisor({ mode: "pipe", sweep: "on-exit", guardian: this.config.guardian, env: this.env });
      child = await startPipeTree(choice, {
        argv: launch.argv,
        cwd: limits.cwd,
        env: launch.env,
        stdin: limits.stdin === null ? "ignore" : "pipe",
        stdout: { sink: store },
        stderr: "stdout",
        graceMs: limits.graceMs,
        timeoutMs: limits.timeoutMs,
        // A program that exits at once may do so before its roots were read: every supervisor
        // makes it a process group leader, so its group still finds what it left.
        // They are ended now rather than after the wait for output EOF (a survivor holding the
        // pipe would make every such answer wait the grace): the sweep would end them anyway.
        // A survivor still between fork and exec is named once it has exec'd (at most 250 ms more).
        onChildExit: (pid) => {
          survivors = survivorsOf(roots ?? { pid, pgid: pid, sid: -1, supervisor: null });
          if (survivors.length === 0) return;
          named = namedAfterExec(survivors, launch.argv).then((found) => {
            survivors = found;
          });
          void named.then(() => child?.terminate()).catch(() => {});
        },
      });
    } catch (error) {
      await store.close().catch(() => {});
      if (error instanceof SpawnError) throw new ToolError(error.code, `${error.message} (exit status ${error.exitStatus})`);
      throw error;
    }
    roots = treeRoots(child.pid) ?? { pid: child.pid, pgid: child.pid, sid: -1, supervisor: null };
    // The program may have exited (and its survivors been found) before `child` was set.
    if (survivors.length > 0) void named.then(() => child?.terminate()).catch(() => {});
    if (limits.stdin !== null && child.stdin != null) {
      child.stdin.on("error", () => {}); // the command may exit without reading it
      child.stdin.end(limits.stdin);
    }
    const run: Run = {
      id,
      line: launch.line,
      pid: child.pid,
      startedAt: Date.now(),
      store,
      child,
      scrubbed: launch.scrubbed,
      result: null,
      survivors: [],
      stoppedForInput: false,
      ended: endOf(child).then(async (result) => {
        await store.close().catch(() => {});
        await named;
        run.result = result;
        run.survivors = survivors;
        return result;
      }),
    };
    this.#runs.set(id, run);
    // The client went away while this run was starting: it is ended like the others.
    if (this.#ending) void child.terminate().catch(() => {});
    return run;
  }

  get(id: number): Run | undefined {
    return this.#runs.get(id);
  }

  /** Forgets a run whose answer was given (its spill file stays). */
  forget(id: number): void {
    this.#runs.delete(id);
  }

  /** Ends every run still going and waits until their trees are gone (the client went away). */
  async terminateAll(): Promise<void> {
    this.#ending = true;
    await Promise.allSettled([...this.#starting]);
    await Promise.all([...this.#runs.values()].map(async (run) => {
      await run.child.terminate().catch(() => {});
      await run.ended.catch(() => {});
    }));
  }

  #spillDir(): string {
    return mcpSpillDir(this.env);
  }
}

/** Where this server's spill files go (made private to the user when first needed). */
export function mcpSpillDir(env: Readonly<Record<string, string | undefined>>): string {
  const dir = path.join(stateDirPath(env), "mcp");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** A process of the run's tree is stopped (state T): a read of a terminal it does not own stops it with SIGTTIN. */
export function treeIsStopped(run: Run): boolean {
  const members = new Set([run.pid]);
  const stats = liveStats();
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of stats) {
      if (!members.has(s.pid) && (members.has(s.ppid) || s.pgrp === run.pid)) {
        members.add(s.pid);
        grew = true;
      }
    }
  }
  return stats.some((s) => members.has(s.pid) && (s.state === "T" || s.state === "t"));
}
