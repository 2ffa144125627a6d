// The process group's one adapter (adapter.ts): without a guardian (none
// built, or not Linux) a pipe tree for `run` and `collect`, or a pipe job,
// starts here with the child leading its own session and group. What the
// handle does then is beside it: pipe-tree.ts (the pipe tree), job-tree.ts
// (a job over one). Weaker than the guardian, as `corral probe` documents.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import type { TreeAdapter } from "../adapter.ts";
import type { SupervisedTree, TreeLaunch } from "../handle.ts";
import type { ResolvedSpawn, SpawnSpec, StdioChoice } from "../spec.ts";
import { SpawnError } from "../spawn-error.ts";
import { resolveSpawn } from "../lookup.ts";
import { monotonicMs } from "../monotonic-ms.ts";
import { OutputChannel } from "../../output/output-channel.ts";
import { type ChildExit, GroupPipeTree } from "./pipe-tree.ts";
import { GroupJob } from "./job-tree.ts";

/** The process group as an adapter: pipe trees and pipe jobs (it has no terminal). */
export const processGroupTree: TreeAdapter = {
  name: "process-group",
  startPipe: startInGroup,
  startJob: ({ launch }) => startGroupJob(launch),
};

async function startInGroup(resolved: ResolvedSpawn): Promise<SupervisedTree> {
  const { spec } = resolved;
  const merged = spec.stderr === "stdout";
  // Node cannot hand one pipe to two fds of a child, so `2>&1` is done by a
  // POSIX sh that dups and execs: the argv reaches the program unparsed, as
  // positional parameters, and sh is replaced by it (no extra process).
  const [file, args] = merged
    ? ["/bin/sh", ["-c", 'exec "$0" "$@" 2>&1', resolved.file, ...spec.argv.slice(1)]]
    : [resolved.file, spec.argv.slice(1)];
  const errChoice = merged ? undefined : spec.stderr as StdioChoice | undefined;
  // A sink that copies what it keeps (writeTransient) gets the child's output
  // over a channel read into one reused buffer: no fresh buffer per read for
  // V8 to collect later, so a 1 GiB stream leaves the RSS where 1 MiB does.
  const channels = { stdout: await channelFor(spec.stdout), stderr: await channelFor(errChoice) };
  const stdio: StdioOptions = [
    spec.stdin ?? "inherit",
    channels.stdout?.childEnd ?? nodeStdio(spec.stdout),
    merged ? "ignore" : channels.stderr?.childEnd ?? nodeStdio(errChoice),
  ];
  const startedAt = monotonicMs();
  let child: ChildProcess;
  try {
    child = spawn(file, args, {
      cwd: resolved.cwd,
      env: spec.env,
      stdio,
      detached: true,
      argv0: merged ? "/bin/sh" : spec.argv[0],
    });
  } catch (error) {
    channels.stdout?.destroy();
    channels.stderr?.destroy();
    throw error;
  }
  // Listen for the exit before awaiting anything, so no runtime can emit it unheard.
  const exit = new Promise<ChildExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  // Our copies of the child's ends: closed, so EOF comes when the child's tree closes its own.
  channels.stdout?.released();
  channels.stderr?.released();
  try {
    await spawned(child, spec);
  } catch (error) {
    channels.stdout?.destroy();
    channels.stderr?.destroy();
    throw error;
  }
  return new GroupPipeTree(child, exit, spec, startedAt, channels);
}

function nodeStdio(choice: StdioChoice | undefined): "inherit" | "pipe" | "ignore" {
  if (choice === undefined) return "inherit";
  return typeof choice === "string" ? choice : "pipe";
}

/**
 * An OutputChannel into the sink when it can take a reused buffer
 * (writeTransient), else null; null too when no channel can be made (its
 * socket lives in a private directory under the temporary directory): the
 * child's pipe stream then feeds the sink, as for any other sink.
 */
async function channelFor(choice: StdioChoice | undefined): Promise<OutputChannel | null> {
  if (typeof choice !== "object") return null;
  const sink = choice.sink;
  const writeTransient = sink.writeTransient;
  if (writeTransient === undefined) return null;
  try {
    return await OutputChannel.open({ writeTransient: (chunk) => writeTransient.call(sink, chunk), onDrain: (listener) => sink.onDrain(listener) });
  } catch {
    return null;
  }
}

function spawned(child: ChildProcess, spec: SpawnSpec): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", (error: NodeJS.ErrnoException) => {
      // Lookup ran first; these only happen when the file changed since.
      const failure = error.code === "ENOENT" ? "not-found" : error.code === "EACCES" ? "not-executable" : "spawn-failed";
      reject(new SpawnError(failure, `${spec.argv[0]}: ${error.message}`));
    });
  });
}

/** Starts a pipe job in its own process group; rejects with SpawnError. */
async function startGroupJob(launch: TreeLaunch): Promise<SupervisedTree> {
  const job = new GroupJob();
  const child = await startInGroup(resolveSpawn({
    argv: launch.argv,
    cwd: launch.cwd,
    env: launch.env,
    stdin: "ignore",
    stdout: { sink: job.sink },
    stderr: "stdout",
    graceMs: launch.graceMs,
  }));
  job.adopt(child);
  return job;
}
