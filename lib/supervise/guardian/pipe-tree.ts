// A pipe tree for `run` and `collect` under its guardian (started by
// tree.ts): the child runs under native/corral-guardian, so termination is
// its census (setsid and double-fork escapees included, pids pinned by
// pidfd), and the exit facts come from its waitpid. Each stream goes where
// its spec says (guardian-stdio.ts routes it; a captured stream's end is
// handed to its capture's result here); a guardian lost or stuck on the way
// is pipe-loss.ts's.
import { Writable, type Readable } from "node:stream";
import type { ResolvedSpawn } from "../spec.ts";
import { type Receipt, receiptOfLeftovers } from "../../core/receipt.ts";
import type { SignalTarget, SupervisedTree, SupervisedTreeEvents, SupervisionResult, TerminateOptions } from "../handle.ts";
import { TreeEvents } from "../tree-events.ts";
import { errnoName, exitFactsOf } from "./facts.ts";
import type { Guardian } from "./client.ts";
import type { ExitedEvent, StreamId, TerminateReceipt } from "./protocol.ts";
import { monotonicMs } from "../monotonic-ms.ts";
import { armDeadline, withinMs } from "../timeout.ts";
import { startTimer } from "../../runtime/timer.ts";
import { pidsLeftByCensus, receiptOfCensus, uncertain } from "../receipts.ts";
import { endWhatTheCensusMissed } from "./census-unseen.ts";
import type { OrphanedTreeReport } from "../orphaned-tree.ts";
import { captureOf, type SpilledPicture, StreamRoute } from "./guardian-stdio.ts";
import { afterPipeLoss, endStuckGuardian, UNANSWERED_MARGIN_MS } from "./pipe-loss.ts";
import { TailGather } from "./tail-gather.ts";
import { liveDescendants, namedProcesses } from "../../proc/tree-members.ts";

/** A pipe tree under its guardian: the handle `run` and `collect` hold (tree.ts starts it). */
export class GuardianPipeTree implements SupervisedTree {
  readonly backend = "guardian" as const;
  readonly #events = new TreeEvents();
  pid = 0;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  exited!: Promise<SupervisionResult>;
  readonly #routes: Partial<Record<StreamId, StreamRoute>> = {};
  /** The tail sent since the last `spilled` event, and the last spilled picture, per stream. */
  readonly #tails: Record<StreamId, TailGather>;
  readonly #spilled: Partial<Record<StreamId, SpilledPicture>> = {};
  /** The census of the first terminate; null: the guardian did not answer it. */
  #termination: Promise<TerminateReceipt | null> | null = null;
  #receipt: TerminateReceipt | undefined;
  /** The census told as a Receipt, once. */
  #told: Promise<Receipt> | undefined;
  #timedOut = false;
  /** How many processes the tree held when the timeout fired. */
  #signalled = 0;
  /** Failed syscalls the guardian reported, and receipt notes without a pid. */
  readonly #faults: string[] = [];
  /** A stream's output is incomplete because of a fault. */
  #outputFault = false;
  /** corral killed a guardian that stopped answering (see #answered). */
  #unresponsive = false;
  /** What #endStuck terminated before it killed an unresponsive guardian. */
  #stuckCleanup: OrphanedTreeReport | undefined;

  constructor(readonly guardian: Guardian, readonly resolved: ResolvedSpawn, readonly startedAt: number) {
    const { spec } = resolved;
    if (spec.stdout !== undefined && spec.stdout !== "inherit" && spec.stdout !== "ignore") this.#routes[1] = new StreamRoute(spec.stdout, guardian);
    const err = spec.stderr;
    if (err !== undefined && err !== "stdout" && err !== "inherit" && err !== "ignore") this.#routes[2] = new StreamRoute(err, guardian);
    this.stdout = this.#routes[1]?.readable ?? null;
    this.stderr = this.#routes[2]?.readable ?? null;
    guardian.on("output", (stream, bytes) => this.#routes[stream]?.push(bytes));
    guardian.on("stopped", (signal) => this.#events.stopped(signal));
    guardian.on("continued", () => this.#events.continued());
    guardian.on("eof", (stream) => {
      const route = this.#routes[stream];
      if (route) route.eofReported = true;
      route?.end();
    });
    this.#tails = { 1: new TailGather(captureOf(spec.stdout)?.tailBytes ?? 0), 2: new TailGather(captureOf(spec.stderr)?.tailBytes ?? 0) };
    guardian.on("tail", (stream, bytes) => this.#tails[stream].push(bytes));
    guardian.on("progress", (e) => {
      captureOf(e.stream === 1 ? spec.stdout : spec.stderr)?.result.captureProgress?.(e.total, e.lineFeeds, e.last);
    });
    guardian.on("spilled", (e) => {
      const error = e.error === null ? null : { code: errnoName(e.errno ?? 0), message: e.error };
      // A failed spill still has the right tail when the guardian kept it (tailSent).
      const counted = e.lineFeeds === undefined ? undefined : { lineFeeds: e.lineFeeds, beforeTail: e.beforeTail ?? -1 };
      const tail = this.#tails[e.stream].take();
      if (e.error === null || e.tailSent === true) this.#spilled[e.stream] = { tail, total: e.total, error, counted };
      else this.#spilled[e.stream] = { tail: new Uint8Array(0), total: -1, error, counted: undefined };
    });
    guardian.on("close", () => {
      for (const route of Object.values(this.#routes)) route.end();
    });
    guardian.on("fault", (f) => {
      if (f.stream !== 0) this.#outputFault = true;
      this.#faults.push(`${f.what}: ${f.syscall} failed (${f.message})`);
    });
    this.stdin = spec.stdin === "pipe"
      ? new Writable({
        write: (chunk: Uint8Array, _encoding, done) => (guardian.write(chunk), done()),
        final: (done) => void guardian.closeStdin().then(() => done(), () => done()),
      })
      : null;
  }

  terminate(graceMs?: number, firstSignal?: NodeJS.Signals): Promise<Receipt> {
    const options: Partial<TerminateOptions> = { ...(graceMs !== undefined ? { graceMs } : {}), ...(firstSignal !== undefined ? { signal: firstSignal } : {}) };
    this.#told ??= this.#census(options).then((census) => census === null ? uncertain("the guardian did not answer a terminate") : receiptOfCensus(census));
    return this.#told;
  }

  /** Idempotent: later calls get the first call's census. */
  #census(options: Partial<TerminateOptions> = {}): Promise<TerminateReceipt | null> {
    this.#termination ??= (async () => {
      // The first signal rides in the terminate request itself: a separate signal followed by
      // terminate's SIGTERM would kill a child that handles SIGINT and exits on its own.
      const graceMs = options.graceMs ?? this.resolved.spec.graceMs;
      const receipt = await this.#answered(this.guardian.terminate(graceMs, options.signal ?? "SIGTERM"), graceMs);
      // A guardian blind to /proc leaves its adopted escapees to us (census-unseen.ts).
      return this.#noted(await endWhatTheCensusMissed(this.guardian, receipt, graceMs));
    })().catch(() => null);
    return this.#termination;
  }

  /**
   * The usual end: terminate() and the guardian's exit in one request.
   * shutdown is terminate followed by exit and answers with the same
   * receipt, so this saves terminate-then-shutdown(0)'s second census of
   * /proc and a round trip (some 3 ms of every run).
   */
  #terminateAndExit(): Promise<TerminateReceipt | null> {
    const graceMs = this.resolved.spec.graceMs;
    this.#termination = this.#answered(this.guardian.shutdown(graceMs), graceMs)
      .then(async (receipt) => this.#noted(await endWhatTheCensusMissed(this.guardian, receipt, graceMs)))
      .catch(() => null);
    return this.#termination;
  }

  /**
   * A terminate answers within its grace plus the guardian's SIGKILL wait;
   * a guardian that does not (stuck, spinning) is killed, so corral always
   * answers SIGTERM: the loss path then cleans up what it can identify.
   */
  async #answered<T>(request: Promise<T>, graceMs: number): Promise<T> {
    let stop: (() => void) | undefined;
    const stuck = new Promise<never>((_, reject) => {
      stop = startTimer(graceMs + UNANSWERED_MARGIN_MS, () => {
        this.#unresponsive = true;
        void endStuckGuardian(this.guardian, graceMs).then((report) => (this.#stuckCleanup = report)).finally(() => reject(new Error("the guardian did not answer a terminate")));
      });
    });
    try {
      return await Promise.race([request, stuck]);
    } finally {
      stop?.();
    }
  }

  /** Keeps the census for the exit facts; its notes without a pid become fault lines. */
  #noted(receipt: TerminateReceipt): TerminateReceipt {
    this.#receipt = receipt;
    for (const u of receipt.uncertain) {
      if (u.pid === null) this.#faults.push(`terminate: ${u.reason}`);
    }
    return receipt;
  }

  /** Output goes where the spec says; `exit` and `done` come with `exited`. */
  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.#events.on(event, listener);
  }

  /** Into the child's stdin when the spec piped it; otherwise dropped. */
  write(data: Uint8Array | string): void {
    this.stdin?.write(data);
  }

  /** No terminal. */
  resize(): void {}

  /** Rejects when the guardian could not give it. */
  signal(signal: string, target: SignalTarget): Promise<void> {
    return this.guardian.signal(signal, target);
  }

  /** Flow control is the route's backpressure (StreamRoute) or the sink's. */
  pause(): void {}

  resume(): void {}

  /** The guardian exits by itself once the tree is swept (#supervise). */
  dispose(): void {}

  supervise(): void {
    this.exited = this.#supervise().then((result) => {
      const receipt = this.#receipt !== undefined ? receiptOfCensus(this.#receipt) : receiptOfLeftovers(result.facts.forced, result.uncertain);
      this.#events.done(result.facts, receipt);
      return result;
    });
  }

  async #supervise(): Promise<SupervisionResult> {
    const { graceMs, leaveRunning } = this.resolved.spec;
    const disarm = armDeadline(this.resolved.spec, () => void this.terminate(), () => {
      this.#timedOut = true;
      this.#signalled = liveDescendants(this.guardian.pid ?? 0).length;
    });
    const exited = await this.guardian.exited.catch(() => null);
    const durationMs = Math.round(monotonicMs() - this.startedAt);
    disarm();
    if (exited === null) return this.#afterLoss(null, durationMs);
    this.resolved.spec.onChildExit?.(this.pid);
    const outputComplete = await this.#waitForEof(graceMs);
    // Something still holds the output after the command exited: named before it is terminated.
    const survivors = !outputComplete && this.#termination === null && leaveRunning !== true
      ? namedProcesses(liveDescendants(this.guardian.pid ?? 0))
      : [];
    let census: TerminateReceipt | null = null;
    let answered = true;
    if (this.#termination !== null) {
      census = await this.#census();
      answered = await this.guardian.shutdown(0).then(() => true, () => false);
    } else if (leaveRunning === true) {
      answered = await this.guardian.release().then(() => true, () => false);
    } else {
      census = await this.#terminateAndExit();
      answered = this.#receipt !== undefined;
    }
    // The child's exit is known, but the guardian died before it cleaned up.
    if (!answered && this.#receipt === undefined && leaveRunning !== true) return this.#afterLoss(exited, durationMs);
    this.guardian.detach();
    for (const route of Object.values(this.#routes)) route.end();
    // The last spilled picture is final now that the tree is gone.
    for (const stream of [1, 2] as const) {
      const picture = this.#spilled[stream];
      const sink = captureOf(stream === 1 ? this.resolved.spec.stdout : this.resolved.spec.stderr)?.result ?? null;
      if (picture === undefined || sink === null) continue;
      // total -1: the tail could not be had from the guardian; the live head and bytes stand.
      if (picture.total >= 0) sink.adoptTail(picture.tail, picture.total, picture.counted);
      if (picture.error !== null) sink.externalSpillFailed(picture.error.code, picture.error.message);
    }
    const complete = outputComplete && !this.#outputFault;
    const facts = exitFactsOf(exited, { timedOut: this.#timedOut, durationMs, outputComplete: complete, ...(this.#receipt ? { receipt: this.#receipt } : {}) });
    const told = {
      ...(this.#timedOut ? { signalled: this.#signalled } : {}),
      ...(survivors.length > 0 ? { survivors } : {}),
    };
    return { facts: { ...facts, forced: census?.forced ?? false, ...told }, uncertain: census === null ? [] : pidsLeftByCensus(census), ...this.#faultList() };
  }

  #faultList(): { faults?: readonly string[] } {
    return this.#faults.length === 0 ? {} : { faults: [...this.#faults] };
  }

  /** The guardian was lost before the end (pipe-loss.ts). */
  #afterLoss(exited: ExitedEvent | null, durationMs: number): Promise<SupervisionResult> {
    const lost = { exited, durationMs, graceMs: this.resolved.spec.graceMs, timedOut: this.#timedOut, stuckCleanup: this.#stuckCleanup, unresponsive: this.#unresponsive, faults: this.#faults };
    return afterPipeLoss(this.guardian, lost, () => {
      for (const route of Object.values(this.#routes)) route.end();
    });
  }

  /** True when every routed stream reached EOF within `ms` (a grandchild may hold one open). */
  async #waitForEof(ms: number): Promise<boolean> {
    const routes = Object.values(this.#routes);
    if (routes.every((r) => r.eof)) return routes.every((r) => r.eofReported);
    const ended = await withinMs(Promise.all(routes.map((r) => r.ended)).then(() => true as const), ms);
    return ended === true && routes.every((r) => r.eofReported);
  }
}
