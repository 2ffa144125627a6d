// A pipe tree in its own process group, without a guardian (tree.ts starts
// it): the child leads its own session and group (setsid via `detached`),
// and the group is what gets terminated. It cannot catch descendants that
// setsid() away (the guardian can); corral probe says which is in force.
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import type { ExitFacts } from "../../core/exit-facts.ts";
import { OutputPump, type Pump, waitForEof } from "../output-pump.ts";
import type { OutputChannel } from "../../output/output-channel.ts";
import type { ByteSink, SpawnSpec, StdioChoice } from "../spec.ts";
import { type GroupSweep, terminateGroup } from "./terminate.ts";
import type { SignalTarget, SupervisedTree, SupervisedTreeEvents, SupervisionResult } from "../handle.ts";
import { TreeEvents } from "../tree-events.ts";
import { signalGroup } from "../runtime-quirks.ts";
import { type Receipt, receiptOfLeftovers } from "../../core/receipt.ts";
import { monotonicMs } from "../monotonic-ms.ts";
import { armDeadline } from "../timeout.ts";
import { groupMembers } from "./members.ts";
import { namedProcesses } from "../../proc/tree-members.ts";

/** How the child itself ended, as the runtime reported it. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: string | null;
}

/** A pipe tree in its own process group (tree.ts starts it). */
export class GroupPipeTree implements SupervisedTree {
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

  constructor(child: ChildProcess, exit: Promise<ChildExit>, spec: SpawnSpec, startedAt: number, channels: { readonly stdout: OutputChannel | null; readonly stderr: OutputChannel | null }) {
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
