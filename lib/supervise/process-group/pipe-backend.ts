// The pure-JavaScript backend: the child leads its own session and process
// group (setsid via `detached`), and the group is what gets terminated. It
// cannot catch descendants that setsid() away (the guardian can); corral
// probe says which backend is in force.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import type { Readable } from "node:stream";
import type { ResolvedSpawn, SpawnBackend, SupervisedProcess, SupervisionResult } from "../backend.ts";
import type { ExitFacts } from "../../core/exit-facts.ts";
import { OutputPump, type Pump, waitForEof } from "../output-pump.ts";
import { OutputChannel } from "../../output/output-channel.ts";
import type { ByteSink, SpawnSpec, StdioChoice } from "../spec.ts";
import { SpawnError } from "../spawn-error.ts";
import { type GroupSweep, terminateGroup } from "./terminate.ts";
import type { SignalTarget, SupervisedTreeEvents } from "../handle.ts";
import { TreeEvents } from "../tree-events.ts";
import { signalGroup } from "../runtime-quirks.ts";
import { type Receipt, receiptOfLeftovers } from "../../core/receipt.ts";
import { monotonicMs } from "../monotonic-ms.ts";
import { armDeadline } from "../timeout.ts";
import { groupMembers } from "./members.ts";
import { namedProcesses } from "../../proc/tree-members.ts";

/** Supervises each child as its own process group. */
export const processGroupBackend: SpawnBackend = {
  name: "process-group",
  start: startInGroup,
};

async function startInGroup(resolved: ResolvedSpawn): Promise<SupervisedProcess> {
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
  return new GroupProcess(child, exit, spec, startedAt, channels);
}

function nodeStdio(choice: StdioChoice | undefined): "inherit" | "pipe" | "ignore" {
  if (choice === undefined) return "inherit";
  return typeof choice === "string" ? choice : "pipe";
}

type Channels = { readonly stdout: OutputChannel | null; readonly stderr: OutputChannel | null };

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

interface ChildExit {
  readonly code: number | null;
  readonly signal: string | null;
}

class GroupProcess implements SupervisedProcess {
  readonly backend = "process-group" as const;
  readonly pid: number;
  readonly #events = new TreeEvents();
  readonly stdin;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly exited: Promise<SupervisionResult>;
  readonly #spec: SpawnSpec;
  #termination: Promise<GroupSweep> | null = null;
  #receipt: Promise<Receipt> | undefined;
  #timedOut = false;
  /** How many processes the group held when the timeout fired. */
  #signalled = 0;

  constructor(child: ChildProcess, exit: Promise<ChildExit>, spec: SpawnSpec, startedAt: number, channels: Channels) {
    this.pid = child.pid as number;
    this.#spec = spec;
    this.stdin = child.stdin;
    const pumps: Pump[] = [];
    if (channels.stdout !== null) pumps.push(channels.stdout);
    if (channels.stderr !== null) pumps.push(channels.stderr);
    this.stdout = adopt(child.stdout, spec.stdout, pumps);
    this.stderr = adopt(child.stderr, spec.stderr === "stdout" ? undefined : spec.stderr, pumps);
    this.exited = this.#supervise(exit, pumps, startedAt);
  }

  terminate(graceMs = this.#spec.graceMs, firstSignal?: NodeJS.Signals): Promise<Receipt> {
    this.#receipt ??= this.#sweep(graceMs, firstSignal).then((sweep) => receiptOfLeftovers(sweep.forced, sweep.left));
    return this.#receipt;
  }

  /** Idempotent: later calls get the first call's sweep. */
  #sweep(graceMs = this.#spec.graceMs, firstSignal?: NodeJS.Signals): Promise<GroupSweep> {
    this.#termination ??= terminateGroup(this.pid, { graceMs, ...(firstSignal !== undefined ? { signal: firstSignal } : {}) });
    return this.#termination;
  }

  /** Output goes where the spec says; `exit` and `done` come with `exited`. No stop events: a group cannot report them. */
  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.#events.on(event, listener);
  }

  /** Into the child's stdin when the spec piped it; otherwise dropped. */
  write(data: Uint8Array | string): void {
    this.stdin?.write(data);
  }

  /** No terminal. */
  resize(): void {}

  /** The whole group either way: a pipe tree has no foreground job of its own. */
  signal(signal: string, _target: SignalTarget): Promise<void> {
    signalGroup(this.pid, signal as NodeJS.Signals);
    return Promise.resolve();
  }

  /** Flow control is the sink's backpressure (spec.ts ByteSink) or the caller's stream. */
  pause(): void {}

  resume(): void {}

  /** Nothing held beyond the pipes, which close with the child. */
  dispose(): void {}

  async #supervise(
    exit: Promise<ChildExit>,
    pumps: Pump[],
    startedAt: number,
  ): Promise<SupervisionResult> {
    const disarm = armDeadline(this.#spec, () => void this.terminate(), () => {
      this.#timedOut = true;
      this.#signalled = groupMembers(this.pid).length;
    });
    const { code, signal } = await exit;
    const durationMs = Math.round(monotonicMs() - startedAt);
    disarm();
    this.#spec.onChildExit?.(this.pid);
    const outputComplete = await waitForEof(pumps, this.#spec.graceMs);
    // Something still holds the output after the command exited: named before it is terminated.
    const survivors = !outputComplete && this.#termination === null && this.#spec.leaveRunning !== true
      ? namedProcesses(groupMembers(this.pid))
      : [];
    let sweep: GroupSweep = { forced: false, left: [] };
    if (this.#termination !== null || this.#spec.leaveRunning !== true) sweep = await this.#sweep();
    for (const pump of pumps) pump.abandon();
    const facts: ExitFacts = {
      code,
      signal,
      timedOut: this.#timedOut,
      forced: sweep.forced,
      durationMs,
      outputComplete,
      ...(this.#timedOut ? { signalled: this.#signalled } : {}),
      ...(survivors.length > 0 ? { survivors } : {}),
    };
    this.#events.done(facts, receiptOfLeftovers(sweep.forced, sweep.left));
    return { facts, uncertain: sweep.left };
  }
}

function adopt(stream: Readable | null, choice: StdioChoice | undefined, pumps: Pump[]): Readable | null {
  if (stream === null) return null;
  const sink: ByteSink | null = typeof choice === "object" ? choice.sink : null;
  pumps.push(new OutputPump(stream, sink));
  return sink === null ? stream : null;
}
